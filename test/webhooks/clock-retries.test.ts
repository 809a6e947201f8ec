// Retries run on the server clock: a delivery that failed is due again after its delay of the
// schedule as the sandbox clock counts it, so advancing the clock brings the retry forward
// (an integrator need not wait an hour to see it), and before that nothing is sent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let acme: TestCompany;
let receiver: Receiver;

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h,2h' }, { backgroundJobs: false });
  acme = await createCompany(server.client);
  receiver = await startReceiver((_req, i) => (i === 0 ? 500 : 200));
});
test.after(async () => {
  await receiver.close();
  await server.close();
});

const deliveries = async (webhookId: string) => {
  const res = await server.client.get(`/api/v1/webhook/${encodeURIComponent(webhookId)}/deliveries`, {
    auth: acme.appID,
  });
  assert.is(res.status, 200, res.text);
  return res.body.deliveries as Array<Record<string, any>>;
};

test('a failed delivery is retried once the sandbox clock passes its delay, not before', async () => {
  const created = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'clock', event: 'OPENPIX:TRANSACTION_RECEIVED', url: `${receiver.url}/hook` } },
    { auth: acme.appID },
  );
  assert.is(created.status, 200, created.text);
  const webhookId = created.body.webhook.id as string;
  const eventId = await record(server, acme.companyId, 'OPENPIX:TRANSACTION_RECEIVED', {
    pix: { value: 100 },
    charge: null,
  });
  await drain(server, 2);
  assert.is(receiver.requests.length, 1);
  let [d] = await deliveries(webhookId);
  const now = await server.services.clock.now(acme.companyId);
  assert.equal([d!.status, d!.attempts.length], ['PENDING', 1]);
  // Due an hour from now on the server clock (plus up to 20 % of jitter).
  const waitMs = Date.parse(d!.nextAttemptAt) - now.getTime();
  assert.ok(waitMs > 3_590_000 && waitMs <= 4_320_000, `next attempt in ${waitMs} ms`);
  await drain(server, 2);
  assert.is(receiver.requests.length, 1, 'not due yet: nothing sent');
  assert.is(
    (await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 4_400 }, { auth: acme.appID })).status,
    200,
  );
  await drain(server, 2);
  assert.is(receiver.requests.length, 2);
  assert.is(receiver.requests[1]!.headers['x-pixgate-event-id'], eventId);
  [d] = await deliveries(webhookId);
  assert.equal(
    [d!.status, d!.nextAttemptAt, d!.attempts.map((a: any) => a.statusCode)],
    ['SUCCEEDED', null, [500, 200]],
  );
});

test('moving the clock far ahead makes a failing delivery due once, not its whole schedule', async () => {
  receiver.respond = () => 500;
  receiver.requests.length = 0;
  const created = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'down', event: 'OPENPIX:CHARGE_EXPIRED', url: `${receiver.url}/down` } },
    { auth: acme.appID },
  );
  await record(server, acme.companyId, 'OPENPIX:CHARGE_EXPIRED', { charge: { correlationID: 'x' } });
  await drain(server, 2);
  assert.is(receiver.requests.length, 1);
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 30 * 86_400 }, { auth: acme.appID });
  await drain(server, 3);
  assert.is(receiver.requests.length, 2, 'one retry per advance');
  const [d] = await deliveries(created.body.webhook.id);
  assert.equal([d!.status, d!.attempts.length], ['PENDING', 2]);
});

test.run();
