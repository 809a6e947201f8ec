// The server as `make run` runs it: the bundle scripts/build.ts makes, built once per test
// file into a folder of its own (another file may build meanwhile) and removed at exit.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../../src/lib/root';

let built: string | undefined;

function bundle(): string {
  if (built) return built;
  const dir = join(ROOT, '.tmp', `dist-${process.pid}`);
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--out', dir], { cwd: ROOT, stdio: 'ignore' });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return (built = dir);
}

// Starts the bundled server (from the project folder, as make run does) with `env` added.
export function spawnServer(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--max-semi-space-size=16', join(bundle(), 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
}
