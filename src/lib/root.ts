// The project's folder (the one holding package.json), found from wherever the running code
// sits: src/lib when tsx runs the sources (tests, scripts), dist/ when `make run` runs the
// bundle. Files the server reads (specs, docs, migrations) are found from it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json in ${from} or above it`);
  }
}

export const PROJECT_ROOT = projectRoot(import.meta.dirname);
