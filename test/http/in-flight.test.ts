// The count a stop waits on (src/http/in-flight.ts): settled at once when idle, when the last
// request ends, or false once its bound passes with one still running.
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { InFlightRequests } from '../../src/http/in-flight';

test('idle: settled at once', async () => {
  assert.is(await new InFlightRequests().settled(1000), true);
});

test('settled when the last of several requests ends, not before', async () => {
  const inFlight = new InFlightRequests();
  inFlight.begin();
  inFlight.begin();
  let settled: boolean | undefined;
  const waiting = inFlight.settled(5000).then((value) => (settled = value));
  inFlight.end();
  await sleep(10);
  assert.is(settled, undefined, 'one still runs');
  inFlight.end();
  await waiting;
  assert.is(settled, true);
  assert.is(inFlight.size, 0);
});

test('a request still running past the bound: false, and its later end settles nothing twice', async () => {
  const inFlight = new InFlightRequests();
  inFlight.begin();
  assert.is(await inFlight.settled(20), false);
  assert.is(inFlight.size, 1);
  inFlight.end();
  assert.is(await inFlight.settled(20), true);
});

test.run();
