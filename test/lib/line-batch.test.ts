// Log lines gathered in a LineBatch (src/lib/line-batch.ts) reach their destination whole, in
// order and once: a batch at a time when enough has gathered, the rest on flush, and what is
// left when the process exits, however it exits.
import { execFileSync, spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineBatch, type LineDestination } from '../../src/lib/line-batch';
import { PROJECT_ROOT } from '../../src/lib/root';

function recorder(): LineDestination & { writes: string[]; flushes: number } {
  return {
    writes: [],
    flushes: 0,
    write(text) {
      this.writes.push(text);
      return true;
    },
    flush(callback) {
      this.flushes++;
      callback?.();
    },
    flushSync() {
      this.flushes++;
    },
  };
}

const line = (i: number) => `${JSON.stringify({ i, pad: 'x'.repeat(200) })}\n`;

test('lines are handed over in batches, in order, each once', () => {
  const out = recorder();
  const batch = new LineBatch(out);
  const lines = Array.from({ length: 500 }, (_, i) => line(i));
  for (const l of lines) batch.write(l);
  assert.ok(out.writes.length >= 5 && out.writes.length < 20, `${out.writes.length} writes`);
  batch.flush();
  assert.is(out.writes.join(''), lines.join(''));
  assert.is(out.flushes, 1);
  batch.flush();
  assert.is(out.writes.join(''), lines.join(''), 'nothing handed over twice');
});

test('flushSync hands over what gathered', () => {
  const out = recorder();
  const batch = new LineBatch(out);
  batch.write(line(1));
  assert.equal(out.writes, []);
  batch.flushSync();
  assert.equal(out.writes, [line(1)]);
});

test("the server's logger writes its last lines at an exit of any kind", () => {
  // A process that logs and exits at once: no interval flush, no clean stop.
  const script = `
    import { createLogger } from './src/server';
    const logger = createLogger({ logLevel: 'info' });
    for (let i = 0; i < 3; i++) logger.info({ i }, 'last words');
    process.exit(3);
  `;
  let stdout = '';
  try {
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    stdout = (error as { stdout: string }).stdout;
    assert.is((error as { status: number }).status, 3, (error as { stderr: string }).stderr);
  }
  const said = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; i: number });
  assert.equal(
    said.map((l) => [l.msg, l.i]),
    [
      ['last words', 0],
      ['last words', 1],
      ['last words', 2],
    ],
  );
});

test("a stdout nobody reads holds at most 16 MB of the server's lines; the drops are reported", async () => {
  // About 100 MB of lines while the parent does not read: without a bound they all wait in
  // memory. Then the parent reads, and the next flush reports what was dropped.
  const script = `
    import { createLogger } from './src/server';
    const logger = createLogger({ logLevel: 'info' });
    const pad = 'x'.repeat(900);
    const before = process.memoryUsage().heapUsed;
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 1000; i++) logger.info({ round, i, pad }, 'line');
      await new Promise((ok) => setTimeout(ok, 2));
    }
    process.stderr.write('grown ' + (process.memoryUsage().heapUsed - before) + '\\n');
    await new Promise((ok) => setTimeout(ok, 1500));
    process.exit(0);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause();
  let stderr = '';
  const grown = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      const found = /grown (-?\d+)/.exec(stderr);
      if (found) resolve(Number(found[1]));
    });
    child.once('exit', () => reject(new Error(`exited before it was done: ${stderr}`)));
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stdout.resume();
  const code = await new Promise<number | null>((ok) => child.once('exit', ok));
  assert.is(code, 0, stderr);
  assert.ok(grown < 48 * 1024 * 1024, `the heap grew by ${grown} bytes`);
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; droppedLines?: number });
  const reports = lines.filter((l) => l.msg === 'log lines dropped: stdout was not read');
  assert.ok(reports.length > 0, 'no report of the dropped lines');
  const written = lines.filter((l) => l.msg === 'line').length;
  // the count since the start, in the last report
  const dropped = reports[reports.length - 1]!.droppedLines!;
  assert.ok(written > 0 && written < 100_000, `${written} lines written`);
  // every line was written or counted (a report that was dropped itself is counted too)
  assert.ok(written + dropped >= 100_000, `${written} written and ${dropped} dropped of 100,000`);
});

test.run();
