// Background jobs survive a failed run: a job that throws (before or after returning its
// promise), meets the database away or hits a bug is logged and runs again at its next
// interval; the process never ends over it. No database: the scheduler alone.
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Scheduler } from '../../src/jobs/scheduler';

function capturingLogger() {
  const lines: { level: number; msg: string; job?: string; error?: string; err?: { stack?: string } }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const connectionLost = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

test('a job whose runs fail in every way keeps running at its interval, and says why', async () => {
  const { logger, lines } = capturingLogger();
  const scheduler = new Scheduler(logger);
  let runs = 0;
  scheduler.register('flaky', 5, () => {
    runs++;
    if (runs === 1) throw new Error('Connection terminated unexpectedly'); // before any promise
    if (runs === 2) return Promise.reject(connectionLost());
    if (runs === 3) throw new TypeError('a bug');
    return Promise.resolve();
  });
  scheduler.start();
  for (const until = Date.now() + 20_000; runs < 6;) {
    if (Date.now() > until) assert.unreachable(`the job ran ${runs} times and stopped`);
    await sleep(10);
  }
  await scheduler.stop();
  const failures = lines.filter((l) => l.job === 'flaky');
  assert.equal(
    failures.map((l) => [l.level, l.msg]),
    [
      [40, 'background job failed: database unavailable'],
      [40, 'background job failed: database unavailable'],
      [50, 'background job failed'],
    ],
  );
  assert.is(failures[0]!.error, 'Connection terminated unexpectedly');
  assert.ok(failures[2]!.err?.stack?.includes('a bug'), 'a bug is logged with its stack');
});

test('runNow reports a failed run as done, and the next run goes ahead', async () => {
  const { logger } = capturingLogger();
  const scheduler = new Scheduler(logger);
  let runs = 0;
  scheduler.register('once', 60_000, () => {
    runs++;
    if (runs === 1) throw connectionLost();
    return Promise.resolve();
  });
  await scheduler.runNow('once');
  await scheduler.runNow('once');
  assert.is(runs, 2);
});

test.run();
