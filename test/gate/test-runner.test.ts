// The test runner (scripts/test.ts) runs files one after another in shared processes: a file
// that fails, crashes its process or hangs is counted against itself alone, and the files
// after it still run, in a new process when the old one is gone.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onceOnEmbeddedRun } from '../support/skip';

const noDatabase = onceOnEmbeddedRun('no database');

const REPO = resolve(import.meta.dirname, '..', '..');

// Planted files, run in this (alphabetical) order by one worker.
const FILES: Record<string, string> = {
  'a-passes.test.ts': `test('one', () => {}); test('two', () => {});`,
  'b-fails.test.ts': `test('fine', () => {}); test('wrong', () => { assert.is(1, 2); });`,
  'c-crashes.test.ts': `test('exits', () => new Promise(() => setTimeout(() => process.exit(7), 10)));`,
  'd-hangs.test.ts': `test('waits forever', () => new Promise(() => setInterval(() => {}, 1000)));`,
  'e-passes.test.ts': `test('after the others', () => { assert.ok(true); });`,
};

function runRunner(root: string): Promise<string> {
  return new Promise((done) => {
    const env = {
      ...process.env,
      TEST_ROOT: root,
      TEST_JOBS: '1',
      TEST_FILE_TIMEOUT_MS: '4000',
      // the planted files open no database: no embedded or Postgres template to build
      PIXGATE_TEST_TEMPLATE: 'unused',
      PIXGATE_TEST_PG_TEMPLATE: 'unused',
    };
    execFile(process.execPath, ['--import', 'tsx', join(REPO, 'scripts', 'test.ts')], { cwd: REPO, env }, (_e, out) =>
      done(out),
    );
  });
}

noDatabase('each file is counted alone; a crash or a hang ends only its own file', async () => {
  // Inside the repository, so the planted files find uvu in its node_modules.
  mkdirSync(join(REPO, '.tmp'), { recursive: true });
  const root = mkdtempSync(join(REPO, '.tmp', 'runner-'));
  try {
    mkdirSync(join(root, 'test'));
    for (const [name, body] of Object.entries(FILES))
      writeFileSync(
        join(root, 'test', name),
        `import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\n${body}\ntest.run();\n`,
      );
    const out = await runRunner(root);
    assert.match(out, /^ok {3}test\/a-passes\.test\.ts \(2 passed, 0 failed/m, out);
    assert.match(out, /^FAIL test\/b-fails\.test\.ts \(1 passed, 1 failed/m, out);
    assert.match(out, /^FAIL test\/c-crashes\.test\.ts \(0 passed, 1 failed/m, out);
    assert.match(out, /the test process ended before the file did/, out);
    assert.match(out, /^FAIL test\/d-hangs\.test\.ts \(0 passed, 1 failed/m, out);
    assert.match(out, /timed out after 4000 ms/, out);
    assert.match(out, /^ok {3}test\/e-passes\.test\.ts \(1 passed, 0 failed/m, out);
    // a, b and c in the first process; d in a second (killed at its timeout); e in a third
    assert.match(out, /^test processes: 3 /m, out);
    assert.match(out, /\n4 passed, 3 failed\n$/, out);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
