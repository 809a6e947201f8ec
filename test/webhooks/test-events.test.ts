// Test events: POST /api/v1/webhook/{id}/test sends a sample of the webhook's type (made by the
// area's real payload code from made-up objects), marked, to that webhook alone, now, once; a
// new webhook gets the public reference's {data_criacao, event}; a Pix API webhook gets none.
// And the Pix API webhooks' delivery log, read through the platform API.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WEBHOOK_EVENTS } from '../../src/webhooks/webhook-events';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
// Keeps test events (the others' receivers drop them).
let receiver: Receiver;

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h' }, { backgroundJobs: false });
  acme = await createCompany(server.client);
  other = await createCompany(server.client, { name: 'Outra Empresa' });
  receiver = await startReceiver(() => 200, 500, { keepTests: true });
});
test.after(async () => {
  await receiver.close();
  await server.close();
});
test.before.each(() => {
  receiver.requests.length = 0;
  receiver.respond = () => 200;
});

async function webhook(company: TestCompany, event: string, path: string, extra: Record<string, unknown> = {}) {
  const res = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: event, event, url: `${receiver.url}${path}`, ...extra } },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  return res.body.webhook as { id: string; secret: string };
}

const sendTest = (company: TestCompany, id: string) =>
  server.client.post(`/api/v1/webhook/${encodeURIComponent(id)}/test`, undefined, { auth: company.appID });

test('a new webhook gets the public reference test body, on the company clock; an inactive one and a Pix API one none', async () => {
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 3_600 }, { auth: other.appID });
  const w = await webhook(other, 'OPENPIX:CHARGE_COMPLETED', '/new');
  await webhook(other, 'OPENPIX:CHARGE_EXPIRED', '/off', { isActive: false });
  const bearer = await pixToken(server.client, other);
  const put = await server.client.put(
    `/pix/v2/webhook/${other.pixKey}`,
    { webhookUrl: `${receiver.url}/pix-api` },
    { auth: bearer },
  );
  assert.is(put.status, 200, put.text);
  await drain(server, 2);
  assert.equal(
    receiver.requests.map((r) => r.path),
    ['/new'],
  );
  const [req] = receiver.requests;
  assert.equal(Object.keys(req!.json).sort(), ['data_criacao', 'event']);
  assert.is(req!.json.event, 'OPENPIX:CHARGE_COMPLETED');
  assert.is(req!.headers['x-pixgate-test'], '1');
  const ahead = Date.parse(req!.json.data_criacao) - Date.now();
  assert.ok(ahead > 3_000_000 && ahead < 3_700_000, `data_criacao is on the company clock (${ahead} ms ahead)`);
  // Listed as a test event about the webhook.
  const events = await server.client.get('/api/v1/events?type=OPENPIX:CHARGE_COMPLETED', { auth: other.appID });
  assert.equal(
    events.body.events.map((e: any) => [e.id, e.isTest, e.object, e.payload]),
    [[req!.headers['x-pixgate-event-id'], true, { type: 'webhook', id: w.id, correlationID: null }, req!.json]],
  );
});

test('POST test: a sample of the webhook type, marked, sent now to it alone, once; listed as a test', async () => {
  const a = await webhook(acme, 'OPENPIX:MOVEMENT_CONFIRMED', '/a');
  await webhook(acme, 'OPENPIX:MOVEMENT_CONFIRMED', '/b');
  await drain(server);
  receiver.requests.length = 0;
  const res = await sendTest(acme, a.id);
  assert.is(res.status, 200, res.text);
  const { event, delivery } = res.body;
  // Sent before the answer, to /a only.
  assert.equal(
    receiver.requests.map((r) => [r.path, r.headers['x-pixgate-test'], r.headers['x-pixgate-event-id']]),
    [['/a', '1', event.id]],
  );
  const body = receiver.requests[0]!.json;
  assert.equal([body.event, body.eventId, body.test], ['OPENPIX:MOVEMENT_CONFIRMED', event.id, true]);
  assert.match(body.payment.correlationID, /^test-/);
  assert.equal(body.transaction.endToEndId.length, 32);
  assert.equal(event.payload, body);
  assert.equal([event.isTest, event.object.type, event.object.id], [true, 'payment', body.payment.id]);
  assert.equal(
    [delivery.status, delivery.isTest, delivery.attempts.length, delivery.attempts[0].response.statusCode],
    ['SUCCEEDED', true, 1, 200],
  );
  assert.is(delivery.attempts[0].request.headers['X-Pixgate-Test'], '1');
  // Not fanned out to the other webhook of its type.
  await drain(server, 2);
  assert.is(receiver.requests.length, 1);
  const listed = await server.client.get(`/api/v1/events/${event.id}`, { auth: acme.appID });
  assert.equal(
    listed.body.event.deliveries.map((d: any) => [d.webhookId, d.isTest]),
    [[a.id, true]],
  );
  // A failed test is not retried.
  receiver.respond = () => 500;
  const failed = await sendTest(acme, a.id);
  assert.equal([failed.body.delivery.status, failed.body.delivery.nextAttemptAt], ['FAILED', null]);
  await drain(server, 2);
  assert.is(receiver.requests.length, 2);
  // Another company's webhook is not found.
  assert.equal(
    [(await sendTest(other, a.id)).status, (await sendTest(other, a.id)).body],
    [404, { error: 'Webhook not found' }],
  );
});

// The objects each family of events carries (besides event, eventId and test).
function objectsOf(type: string): string[] {
  if (/CHARGE_(CREATED|EXPIRED|DELETED)$/.test(type)) return ['account', 'charge', 'company'];
  if (/CHARGE_COMPLETED$|TRANSACTION_RECEIVED$/.test(type)) return ['account', 'charge', 'company', 'pix'];
  if (type === 'OPENPIX:TRANSACTION_REFUND_RECEIVED') return ['pix', 'refund'];
  if (/REFUND_SENT_/.test(type)) return ['account', 'company', 'pix', 'refund'];
  if (type === 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED') return ['account', 'company', 'refund'];
  if (type === 'OPENPIX:MOVEMENT_REMOVED') return ['error', 'payment'];
  if (type === 'OPENPIX:MOVEMENT_FAILED') return ['error', 'payment', 'transaction'];
  if (type === 'OPENPIX:MOVEMENT_CONFIRMED') return ['payment', 'transaction'];
  if (type.startsWith('DISPUTE_')) return ['dispute', 'pix'];
  if (type.includes('PIX_KEY')) return ['pixKey'];
  if (type.includes('FUNDS_RECOVERY')) return ['fundsRecovery'];
  if (type.includes('KYC_ONBOARDING')) return ['onboarding'];
  if (type.includes('SUBSCRIPTION')) return ['subscription'];
  throw new Error(`no family for ${type}`);
}

test('every webhook event has a sample: the objects a real one carries, about a made-up object', async () => {
  for (const type of WEBHOOK_EVENTS) {
    const w = await webhook(acme, type, `/sample/${type}`);
    const res = await sendTest(acme, w.id);
    assert.is(res.status, 200, `${type}: ${res.text}`);
    const { event, delivery } = res.body;
    assert.is(delivery.status, 'SUCCEEDED', type);
    const { event: name, eventId, test: marked, ...objects } = event.payload;
    assert.equal([name, eventId, marked], [type, event.id, true], type);
    assert.equal(Object.keys(objects).sort(), objectsOf(type), type);
    assert.ok(event.object?.id, `${type}: the sample names its object`);
  }
});

test("a sample charge has every field a real charge's event has", async () => {
  const hook = await webhook(acme, 'OPENPIX:CHARGE_CREATED', '/real');
  const created = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'real-1', value: 500, comment: 'Pedido 1' },
    { auth: acme.appID },
  );
  assert.is(created.status, 200, created.text);
  await drain(server);
  const real = receiver.requests.find((r) => r.path === '/real' && !r.headers['x-pixgate-test'])!.json;
  const sample = (await sendTest(acme, hook.id)).body.event.payload;
  assert.equal(Object.keys(sample.charge).sort(), Object.keys(real.charge).sort());
  assert.equal(Object.keys(sample.account).sort(), Object.keys(real.account).sort());
  assert.equal(sample.company, real.company, "the company's own name and id");
  assert.is(sample.charge.status, 'ACTIVE');
  assert.match(sample.charge.correlationID, /^test-/);
});

test('the Pix API webhooks: their delivery log under /api/v1/pix-webhooks, in full, redeliverable', async () => {
  const bearer = await pixToken(server.client, acme);
  const put = await server.client.put(
    `/pix/v2/webhook/${acme.pixKey}`,
    { webhookUrl: `${receiver.url}/pix-api` },
    { auth: bearer },
  );
  assert.is(put.status, 200, put.text);
  await drain(server);
  assert.equal(receiver.requests, [], 'no test callback on registration');
  const listed = await server.client.get('/api/v1/pix-webhooks', { auth: acme.appID });
  assert.is(listed.status, 200, listed.text);
  assert.equal(
    listed.body.webhooks.map((w: any) => [w.kind, w.chave, w.webhookUrl]),
    [['PIX', acme.pixKey, `${receiver.url}/pix-api`]],
  );
  const id = encodeURIComponent(listed.body.webhooks[0].id);
  const eventId = await record(server, acme.companyId, 'PIX_API:PIX', {
    chave: acme.pixKey,
    pix: {
      endToEndId: 'E99999999202603161200TESTABCDEFG',
      txid: 'cob123',
      valor: '1.00',
      horario: '2026-03-16T12:00:00Z',
    },
  } as never);
  receiver.respond = () => 503;
  await drain(server);
  const log = await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries`, { auth: acme.appID });
  assert.is(log.status, 200, log.text);
  const [d] = log.body.deliveries;
  assert.equal(
    [d.event, d.eventId, d.status, d.attempts[0].errorClass],
    ['PIX_API:PIX', eventId, 'PENDING', 'HTTP_STATUS'],
  );
  const full = await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries/${d.id}`, { auth: acme.appID });
  assert.is(full.status, 200, full.text);
  assert.equal(JSON.parse(full.body.delivery.body), {
    pix: [
      {
        endToEndId: 'E99999999202603161200TESTABCDEFG',
        txid: 'cob123',
        valor: '1.00',
        horario: '2026-03-16T12:00:00Z',
      },
    ],
  });
  assert.is(full.body.delivery.attempts[0].request.url, `${receiver.url}/pix-api/pix`);
  receiver.respond = () => 200;
  const again = await server.client.post(`/api/v1/pix-webhooks/${id}/deliveries/${d.id}/redeliver`, undefined, {
    auth: acme.appID,
  });
  assert.equal([again.status, again.body.delivery.status, again.body.delivery.attempts.length], [200, 'SUCCEEDED', 2]);
  // The kinds do not mix, nor the companies.
  assert.is((await server.client.get(`/api/v1/webhook/${id}/deliveries`, { auth: acme.appID })).status, 404);
  assert.is((await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries`, { auth: other.appID })).status, 404);
  assert.is(
    (await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries/${d.id}`, { auth: other.appID })).status,
    404,
  );
});

test.run();
