// A network timeout must not fire for time the process could not listen: after the event loop
// was blocked past it, what already arrived is read first (here: a callback of the same turn
// of the loop) and the wait gets one more period; silence while listening still ends it.
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { patientTimeout } from '../../src/lib/patient-timer';

function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

test('after a blocked loop, an answer read in the same turn clears the wait before it fires', async () => {
  let fired = false;
  const timer = patientTimeout(() => (fired = true), 50);
  // The answer is there, waiting to be read after the timers of this turn (as socket data is).
  setImmediate(() => timer.clear());
  blockFor(400);
  await sleep(200);
  assert.is(fired, false);
});

test('a plain timeout in the same situation fires: what the patient one avoids', async () => {
  let fired = false;
  const timer = setTimeout(() => (fired = true), 50);
  setImmediate(() => clearTimeout(timer));
  blockFor(400);
  await sleep(200);
  assert.is(fired, true);
});

async function untilFired(count: () => number): Promise<void> {
  for (const until = Date.now() + 5000; count() === 0;) {
    if (Date.now() > until) assert.unreachable('the wait never ended');
    await sleep(10);
  }
  await sleep(100);
}

test('silence while listening ends the wait, once', async () => {
  let fired = 0;
  patientTimeout(() => fired++, 50);
  await untilFired(() => fired);
  assert.is(fired, 1);
});

test('a loop blocked again and again still gives up, after a few more periods', async () => {
  let fired = 0;
  patientTimeout(() => fired++, 30);
  for (let i = 0; i < 8; i++) {
    blockFor(250);
    await sleep(0);
  }
  await untilFired(() => fired);
  assert.is(fired, 1);
});

test.run();
