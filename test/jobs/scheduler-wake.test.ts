// The scheduler's wake: a job woken runs now instead of at its next tick, once even when
// woken while it runs (then right after), and not at all while the scheduler is stopped.
import pino from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Scheduler } from '../../src/jobs/scheduler';

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

test.run();
