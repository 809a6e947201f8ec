// One process at a time on an embedded data folder. PGlite takes no lock of its own: a second
// process opening the same folder (a second `make run`, `make demo-credentials` beside a
// running server) writes the same files and corrupts the database. The holder writes its pid
// to <dataDir>/pixgate.pid, created exclusively; a file whose process is gone (a crash, a
// container restarted with the same pid) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'pixgate.pid';

export class DataDirInUseError extends Error {
  readonly code = 'DATA_DIR_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${dataDir} is in use by another pixgate process (pid ${pid})`);
  }
}

// Folders this process holds: opening one twice in a process is refused too.
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// A file left by a process that is gone (another starting process may remove it first).
function removeStale(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

// Takes the folder (it must exist) or throws DataDirInUseError; answers the release.
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  if (held.has(dir)) throw new DataDirInUseError(dir, process.pid);
  for (let attempt = 1; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = holderOf(file);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dir, pid);
      if (attempt === 3) throw error;
      removeStale(file);
    }
  }
  held.add(dir);
  return () => {
    held.delete(dir);
    if (holderOf(file) === process.pid) unlinkSync(file);
  };
}
