// A clean stop while a request is still at work whose client has already gone (a load tool
// stopping, a proxy's timeout, a phone losing its signal). The client's departure is not the
// request's end: the stop waits for the handler, which finishes its work, and for the
// request's log entry, written before the database closes. The request kept at work is a
// webhook test delivery (answered after its attempt) to a receiver that answers late.
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// The receiver's delay: long enough for the client to leave and the stop to begin while the
// delivery waits, short against the delivery's timeout.
const RECEIVER_DELAY_MS = 1500;

let server: TestServer;
let company: TestCompany;
let receiver: Receiver;
let stopping: Promise<unknown> | undefined;

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_TIMEOUT_MS: '10000' }, { backgroundJobs: false });
  company = await createCompany(server.client);
  receiver = await startReceiver(() => 200, 500, { keepTests: true });
});

test.after(async () => {
  await (stopping ?? server.close());
  await receiver.close();
});

// Sends a POST and destroys its connection `leaveAfterMs` later; the status if an answer came first.
function postAndLeave(path: string, leaveAfterMs: number): Promise<number | undefined> {
  return new Promise((done) => {
    let answered: number | undefined;
    const req = request(`${server.url}${path}`, { method: 'POST', headers: { authorization: company.appID } });
    req.on('error', () => undefined);
    req.on('response', (res) => (answered = res.statusCode));
    req.end();
    setTimeout(() => {
      req.destroy();
      done(answered);
    }, leaveAfterMs);
  });
}

test('a stop waits for a request whose client left; the request finishes and leaves its log entry', async () => {
  const made = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'late', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/late`, isActive: false } },
    { auth: company.appID },
  );
  assert.is(made.status, 200, made.text);
  receiver.respond = () => ({ status: 200, delayMs: RECEIVER_DELAY_MS });
  const before = server.services.requestLogs.status();

  const answered = await postAndLeave(`/api/v1/webhook/${made.body.webhook.id}/test`, 300);
  assert.is(answered, undefined, 'the client left before any answer');
  await receiver.waitFor(1, 5000);
  let closed = false;
  const closing = (stopping = server.close()).then(() => (closed = true));
  await sleep(RECEIVER_DELAY_MS / 3);
  assert.not.ok(closed, 'the stop waits while the request is at work');
  await closing;

  const after = server.services.requestLogs.status();
  assert.equal(after.dropped, before.dropped, 'no request log entry dropped at the stop');
  assert.is(after.written, before.written + before.buffered + 1, "the request's entry was written at the stop");
});

test.run();
