// The scheduler's wake: a job woken runs now instead of at its next tick, once even when
// woken while it runs (then right after), and not at all while the scheduler is stopped;
// a job woken by a request runs outside that request (its deadline, its statement count);
// a clock moved forward wakes the jobs marked clock-driven.
import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Scheduler } from '../../src/jobs/scheduler';
import { remainingMs, withDeadline } from '../../src/db/deadline';
import { countStatements, countStatement } from '../../src/db/statement-counter';

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await sleep(10);
  assert.ok(done(), 'the job did not run');
}

test('a woken job runs without waiting for its interval', async () => {
  const jobs = new Scheduler(pino({ level: 'silent' }));
  let runs = 0;
  jobs.register('hourly', 3_600_000, async () => {
    runs++;
  });
  jobs.wake('hourly');
  await sleep(20);
  assert.is(runs, 0, 'not started: nothing runs');
  jobs.start();
  jobs.wake('hourly');
  await until(() => runs === 1);
  await jobs.stop();
});

test('woken while it runs, it runs again right after', async () => {
  const jobs = new Scheduler(pino({ level: 'silent' }));
  let runs = 0;
  let release: () => void = () => undefined;
  jobs.register('slow', 3_600_000, async () => {
    runs++;
    if (runs === 1) await new Promise<void>((ok) => (release = ok));
  });
  jobs.start();
  jobs.wake('slow');
  await until(() => runs === 1);
  jobs.wake('slow');
  jobs.wake('slow');
  release();
  await until(() => runs === 2);
  await sleep(50);
  assert.is(runs, 2, 'two wakes during a run: one more run');
  await jobs.stop();
});

test('a run asked for while a woken run is due or going waits for it: never two at once', async () => {
  const jobs = new Scheduler(pino({ level: 'silent' }));
  let active = 0;
  let most = 0;
  let runs = 0;
  jobs.register('exclusive', 3_600_000, async () => {
    runs++;
    most = Math.max(most, ++active);
    await sleep(20);
    active--;
  });
  jobs.start();
  jobs.wake('exclusive');
  // the wake's timer fires while this run goes
  await jobs.runNow('exclusive');
  await until(() => runs === 2);
  await jobs.stop();
  assert.is(most, 1, 'two runs of one job overlapped');
});

test("woken by a request, the job's runs carry neither its deadline nor its statement count", async () => {
  const jobs = new Scheduler(pino({ level: 'silent' }));
  const seen: (number | undefined)[] = [];
  jobs.register('often', 20, async () => {
    seen.push(remainingMs());
    countStatement('select 1');
  });
  jobs.start();
  const tally = { statements: 0 };
  await countStatements(tally, () => withDeadline(15_000, async () => jobs.wake('often')));
  await until(() => seen.length >= 3);
  await jobs.stop();
  assert.equal(seen.slice(0, 3), [undefined, undefined, undefined], 'a run inherited the request deadline');
  assert.is(tally.statements, 0, "the job's statements were counted as the request's");
});

test('a clock moved forward wakes the clock-driven jobs, and only them', async () => {
  const jobs = new Scheduler(pino({ level: 'silent' }));
  const runs = { dueByClock: 0, other: 0 };
  jobs.registerAll([
    {
      name: 'due-by-clock',
      intervalMs: 3_600_000,
      run: async () => void runs.dueByClock++,
      why: '',
      clockDriven: true,
    },
    { name: 'hourly', intervalMs: 3_600_000, run: async () => void runs.other++, why: '' },
  ]);
  jobs.start();
  jobs.wakeClockDriven();
  await until(() => runs.dueByClock === 1);
  await sleep(50);
  assert.equal(runs, { dueByClock: 1, other: 0 });
  await jobs.stop();
});

test.run();
