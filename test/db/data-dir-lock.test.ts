// One process at a time on an embedded data folder (PGlite takes no lock of its own): the
// holder's pid in pixgate.pid; a live holder refuses, a gone one is taken over, a second open
// in the same process is refused, a release frees it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from '../../src/db/data-dir-lock';

const dir = mkdtempSync(join(tmpdir(), 'pixgate-lock-'));
const file = join(dir, LOCK_FILE);
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('held by this process: its pid written, a second open refused, released on close', () => {
  const release = lockDataDir(dir);
  assert.is(readFileSync(file, 'utf8').trim(), String(process.pid));
  assert.throws(
    () => lockDataDir(dir),
    (e: unknown) => e instanceof DataDirInUseError,
  );
  release();
  assert.not.ok(existsSync(file));
  lockDataDir(dir)();
});

test('a live holder refuses; a holder that is gone is taken over', async () => {
  const other = spawn('sleep', ['30']);
  try {
    writeFileSync(file, `${other.pid}\n`);
    assert.throws(
      () => lockDataDir(dir),
      (e: unknown) =>
        e instanceof DataDirInUseError && e.pid === other.pid && /in use by another pixgate process/.test(e.message),
    );
  } finally {
    other.kill();
  }
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(file, `${gone}\n`);
  const release = lockDataDir(dir);
  assert.is(readFileSync(file, 'utf8').trim(), String(process.pid));
  release();
});

test.run();
