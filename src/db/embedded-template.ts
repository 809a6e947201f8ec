// A fresh embedded cluster costs an initdb of about 3 s; loading a saved dump of one costs
// under 1 s. `make install` saves such a dump (a pristine cluster: no tables of ours, the
// migrations still run on it) and a new data folder starts from it, so a first start stays
// near the start-up target. Without the dump the server runs initdb as before.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '../package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

// One dump per PGlite version: a dump of another version's cluster would not open.
export function initdbTemplatePath(): string {
  return join(ROOT, 'node_modules', '.cache', 'pixgate', `pglite-${pgliteVersion()}-initdb.tgz`);
}

// A data folder that holds no cluster yet (missing or empty).
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}

export function readInitdbTemplate(): Blob | undefined {
  const file = initdbTemplatePath();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

export async function writeInitdbTemplate(): Promise<string> {
  const file = initdbTemplatePath();
  if (existsSync(file)) return file;
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite();
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  mkdirSync(dirname(file), { recursive: true });
  // Written aside and renamed, so a reader never sees half a file.
  writeFileSync(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${file}.${process.pid}`, file);
  return file;
}
