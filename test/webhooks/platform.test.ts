// Platform API webhooks: registration, listing, removal, public keys; delivery of recorded
// events to a real receiver on 127.0.0.1 with both signatures; retries with backoff, the
// delivery log, exhaustion and manual redelivery; timeouts.
import { createHash, createPublicKey } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordEvent } from '../../src/events/events.repository';
import { verifyHmacSignature, verifyRsaSignature } from '../../src/webhooks/signature';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
let receiver: Receiver;

test.before(async () => {
  server = await startTestServer(
    { PIXGATE_WEBHOOK_RETRY_SCHEDULE: '20ms,40ms,80ms', PIXGATE_WEBHOOK_TIMEOUT_MS: '400' },
    { backgroundJobs: false },
  );
  acme = await createCompany(server.client);
  other = await createCompany(server.client, { name: 'Outra Empresa' });
  receiver = await startReceiver();
});
test.after(async () => {
  await receiver.close();
  await server.close();
});
test.before.each(() => {
  receiver.requests.length = 0;
  receiver.respond = () => 200;
});

const create = (company: TestCompany, webhook: Record<string, unknown>) =>
  server.client.post('/api/v1/webhook', { webhook }, { auth: company.appID });

const chargePayload = {
  charge: { correlationID: 'pedido-10482', value: 4590, status: 'COMPLETED', transactionID: 'a1b2c3' },
  pix: { endToEndId: 'E18236120202603101352Rf35mq892v1', value: 4590, time: '2026-03-10T13:52:47.611Z' },
  company: { name: 'Padaria Boa Vista' },
  account: { accountId: 'acc' },
};

// Runs the job until `done` holds (deliveries whose retries are due later need more runs).
async function drainUntil(done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('deliveries did not settle in time');
    await drain(server);
    await sleep(10);
  }
}

async function removeAll(company: TestCompany): Promise<void> {
  const list = await server.client.get('/api/v1/webhook?limit=100', { auth: company.appID });
  for (const w of list.body.webhooks)
    assert.is(
      (await server.client.delete(`/api/v1/webhook/${encodeURIComponent(w.id)}`, { auth: company.appID })).status,
      200,
    );
}

async function deliveriesOf(company: TestCompany, webhookId: string) {
  const res = await server.client.get(`/api/v1/webhook/${encodeURIComponent(webhookId)}/deliveries`, {
    auth: company.appID,
  });
  assert.is(res.status, 200, res.text);
  return res.body as { deliveries: any[]; pageInfo: any };
}

test('create answers the webhook with its signing secret once; the list shows it without, with pageInfo', async () => {
  const res = await create(acme, {
    name: 'ERP pagamentos',
    event: 'OPENPIX:CHARGE_COMPLETED',
    url: `${receiver.url}/erp`,
    authorization: 'Bearer tok-1',
  });
  assert.is(res.status, 200, res.text);
  const w = res.body.webhook;
  assert.match(Buffer.from(w.id, 'base64').toString(), /^Webhook:[0-9a-f]{24}$/);
  assert.match(w.secret, /^whsec_[A-Za-z0-9]{32}$/);
  assert.equal(
    { ...w, id: 'x', secret: 'x', createdAt: 'x', updatedAt: 'x' },
    {
      id: 'x',
      name: 'ERP pagamentos',
      event: 'OPENPIX:CHARGE_COMPLETED',
      url: `${receiver.url}/erp`,
      authorization: 'Bearer tok-1',
      isActive: true,
      createdAt: 'x',
      updatedAt: 'x',
      secret: 'x',
    },
  );
  const second = await create(acme, { name: 'default event', url: `${receiver.url}/other` });
  assert.is(second.status, 200, second.text);
  assert.is(second.body.webhook.event, 'OPENPIX:TRANSACTION_RECEIVED');

  const list = await server.client.get('/api/v1/webhook', { auth: acme.appID });
  assert.is(list.status, 200, list.text);
  assert.equal(
    list.body.webhooks.map((x: any) => [x.id, x.secret]),
    [
      [w.id, undefined],
      [second.body.webhook.id, undefined],
    ],
  );
  assert.equal(list.body.pageInfo, { skip: 0, limit: 20, totalCount: 2, hasPreviousPage: false, hasNextPage: false });
  const filtered = await server.client.get(
    `/api/v1/webhook?url=${encodeURIComponent(`${receiver.url}/other`)}&limit=1`,
    { auth: acme.appID },
  );
  assert.equal(
    filtered.body.webhooks.map((x: any) => x.id),
    [second.body.webhook.id],
  );
  assert.equal(filtered.body.pageInfo, {
    skip: 0,
    limit: 1,
    totalCount: 1,
    hasPreviousPage: false,
    hasNextPage: false,
  });
  const theirs = await server.client.get('/api/v1/webhook', { auth: other.appID });
  assert.equal(theirs.body.webhooks, []);

  for (const id of [w.id, second.body.webhook.id])
    assert.is(
      (await server.client.delete(`/api/v1/webhook/${encodeURIComponent(id)}`, { auth: acme.appID })).status,
      200,
    );
});

test('refused registrations: duplicate url and event, a scheme other than http(s), bad input', async () => {
  const url = `${receiver.url}/dup`;
  const first = await create(acme, { name: 'a', event: 'OPENPIX:CHARGE_CREATED', url });
  assert.is(first.status, 200);
  const dup = await create(acme, { name: 'b', event: 'OPENPIX:CHARGE_CREATED', url });
  assert.is(dup.status, 400);
  assert.is(dup.body.error, 'A webhook for this url and event already exists');
  // Another event on the same URL, or the same pair in another company, is fine.
  assert.is((await create(acme, { name: 'c', event: 'OPENPIX:CHARGE_EXPIRED', url })).status, 200);
  assert.is((await create(other, { name: 'd', event: 'OPENPIX:CHARGE_CREATED', url })).status, 200);
  const ftp = await create(acme, { name: 'e', url: 'ftp://files.example.com/hook' });
  assert.is(ftp.status, 400);
  assert.is(ftp.body.error, 'Webhook url must use http or https');
  const badEvent = await create(acme, { name: 'f', event: 'OPENPIX:NOPE', url });
  assert.is(badEvent.status, 400);
  const noUrl = await create(acme, { name: 'g' });
  assert.is(noUrl.status, 400);
  await removeAll(acme);
  await removeAll(other);
});

test('bad input is a clear 400 or 404, never a 500: NUL characters, header-breaking authorization, huge skip', async () => {
  const hook = { name: 'x', event: 'OPENPIX:CHARGE_CREATED', url: `${receiver.url}/bad` };
  for (const [webhook, field] of [
    [{ ...hook, name: 'a\u0000b' }, 'body.webhook.name'],
    [{ ...hook, authorization: 'Bearer a\u0000b' }, 'body.webhook.authorization'],
    [{ ...hook, authorization: 'Bearer a\r\nX-Injected: 1' }, 'body.webhook.authorization'],
    [{ ...hook, authorization: 'Bearer \u20ac' }, 'body.webhook.authorization'],
    [{ ...hook, url: 'https://example.com/\u0000' }, 'body.webhook.url'],
  ] as const) {
    const res = await create(acme, webhook);
    assert.is(res.status, 400, res.text);
    assert.is(res.body.details[0].field, field, res.text);
  }
  const w = (await create(acme, hook)).body.webhook;
  const id = encodeURIComponent(w.id);
  try {
    const huge = '99999999999999999999';
    for (const path of [`/api/v1/webhook?skip=${huge}`, `/api/v1/webhook/${id}/deliveries?skip=${huge}`]) {
      const res = await server.client.get(path, { auth: acme.appID });
      assert.equal([res.status, res.body.details?.[0]?.field], [400, 'query.skip'], res.text);
    }
    assert.is((await server.client.get('/api/v1/webhook?url=%00', { auth: acme.appID })).status, 400);
    for (const [method, path, error] of [
      ['DELETE', '/api/v1/webhook/a%00b', 'Webhook not found'],
      ['GET', '/api/v1/webhook/a%00b/deliveries', 'Webhook not found'],
      ['POST', `/api/v1/webhook/${id}/deliveries/a%00b/redeliver`, 'Delivery not found'],
    ] as const) {
      const res = await server.client.request(method, path, { auth: acme.appID });
      assert.equal([res.status, res.body.error], [404, error], `${method} ${path}: ${res.text}`);
    }
  } finally {
    await server.client.delete(`/api/v1/webhook/${id}`, { auth: acme.appID });
  }
});

test("another company's webhook answers exactly like a missing one", async () => {
  const mine = (await create(acme, { name: 'mine', event: 'OPENPIX:MOVEMENT_CONFIRMED', url: `${receiver.url}/m` }))
    .body.webhook;
  const id = encodeURIComponent(mine.id);
  for (const [method, path] of [
    ['DELETE', `/api/v1/webhook/${id}`],
    ['GET', `/api/v1/webhook/${id}/deliveries`],
    ['POST', `/api/v1/webhook/${id}/deliveries/66b0c1d2e3f4a5b6c7d8e9f0/redeliver`],
  ] as const) {
    const theirs = await server.client.request(method, path, { auth: other.appID });
    const missing = await server.client.request(
      method,
      path.replace(id, encodeURIComponent('V2ViaG9vazowMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA=')),
      { auth: acme.appID },
    );
    assert.is(theirs.status, 404, theirs.text);
    assert.equal(theirs.body, { error: 'Webhook not found' });
    assert.equal(missing.body, theirs.body);
  }
  const gone = await server.client.delete(`/api/v1/webhook/${id}`, { auth: acme.appID });
  assert.equal([gone.status, gone.body], [200, { status: 'OK', id: mine.id }]);
  assert.is((await server.client.delete(`/api/v1/webhook/${id}`, { auth: acme.appID })).status, 404);
});

test('public keys: open, one RS256 key in the public reference format and as PEM and JWK, the same on every call', async () => {
  const a = await server.client.get('/api/v1/webhook/public-keys', { auth: acme.appID });
  const b = await server.client.get('/api/v1/webhook/public-keys', { auth: other.appID });
  const open = await server.client.get('/api/v1/webhook/public-keys');
  assert.is(a.status, 200, a.text);
  assert.equal(a.body, b.body);
  assert.is(open.status, 200, open.text);
  assert.equal(open.body, a.body);
  // The operation takes no query parameter; an unknown one is refused, in the platform's format.
  const odd = await server.client.get('/api/v1/webhook/public-keys?format=x509');
  assert.is(odd.status, 400, odd.text);
  assert.type(odd.body.error, 'string');
  // What a receiver written for the public reference reads.
  assert.equal(Object.keys(a.body).sort(), ['keys', 'public_keys']);
  assert.is(a.body.public_keys.length, 1);
  const [reference] = a.body.public_keys;
  assert.equal(Object.keys(reference).sort(), ['is_current', 'key', 'key_identifier']);
  assert.is(reference.is_current, true);
  assert.is(reference.key, a.body.keys[0].pem);
  const der = createPublicKey(reference.key).export({ type: 'spki', format: 'der' });
  assert.is(reference.key_identifier, createHash('sha256').update(der).digest('hex'));
  assert.is(a.body.keys.length, 1);
  const [key] = a.body.keys;
  assert.is(key.alg, 'RS256');
  assert.is(key.active, true);
  assert.match(key.kid, /^whk-\d{4}-\d{2}-[0-9a-f]{8}$/);
  assert.equal(Object.keys(key.jwk).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
  assert.is(key.jwk.kid, key.kid);
  const fromPem = createPublicKey(key.pem).export({ format: 'jwk' });
  assert.equal([fromPem.n, fromPem.e], [key.jwk.n, key.jwk.e]);
});

test('an event is delivered once to its webhook: body, headers, both signatures valid', async () => {
  const created = (
    await create(acme, {
      name: 'paid',
      event: 'OPENPIX:CHARGE_COMPLETED',
      url: `${receiver.url}/hooks/pix?src=pixgate`,
      authorization: 'Bearer tok-9',
    })
  ).body.webhook;
  const eventId = await record(server, acme.companyId, 'OPENPIX:CHARGE_COMPLETED', chargePayload);
  await drain(server);
  await drain(server);
  assert.is(receiver.requests.length, 1);
  const [req] = receiver.requests;
  assert.is(req!.method, 'POST');
  assert.is(req!.path, '/hooks/pix?src=pixgate');
  // The account says what kind it is (a sandbox server's: TESTING).
  assert.equal(req!.json, {
    event: 'OPENPIX:CHARGE_COMPLETED',
    eventId,
    ...chargePayload,
    account: { ...chargePayload.account, environment: 'TESTING' },
  });
  const h = req!.headers;
  assert.is(h['content-type'], 'application/json');
  assert.is(h['authorization'], 'Bearer tok-9');
  assert.is(h['x-pixgate-event'], 'OPENPIX:CHARGE_COMPLETED');
  assert.is(h['x-pixgate-event-id'], eventId);
  assert.equal(verifyHmacSignature(created.secret, req!.body, h['x-pixgate-signature'] as string), { ok: true });
  const t = Number(/t=(\d+)/.exec(h['x-pixgate-signature'] as string)![1]);
  assert.ok(Math.abs(t - Date.now() / 1000) < 5);
  const keys = (await server.client.get('/api/v1/webhook/public-keys', { auth: acme.appID })).body.keys;
  assert.is(h['x-pixgate-key-id'], keys[0].kid);
  assert.ok(verifyRsaSignature(keys[0].pem, req!.body, h['x-webhook-signature'] as string));
  const jwkKey = createPublicKey({ key: keys[0].jwk, format: 'jwk' });
  assert.ok(
    verifyRsaSignature(
      jwkKey.export({ type: 'spki', format: 'pem' }).toString(),
      req!.body,
      h['x-webhook-signature'] as string,
    ),
  );

  // The log holds the test event every new webhook gets (first, delivered) and the event.
  const log = await deliveriesOf(acme, created.id);
  assert.equal(
    log.deliveries.map((x: any) => [x.isTest, x.status]),
    [
      [false, 'SUCCEEDED'],
      [true, 'SUCCEEDED'],
    ],
  );
  const d = log.deliveries[0];
  assert.is(d.eventId, eventId);
  assert.is(d.id, h['x-pixgate-delivery-id']);
  assert.equal(
    [d.webhookId, d.event, d.status, d.nextAttemptAt, d.attempts.length],
    [created.id, 'OPENPIX:CHARGE_COMPLETED', 'SUCCEEDED', null, 1],
  );
  assert.equal([d.attempts[0].statusCode, d.attempts[0].error], [200, null]);
  assert.ok(d.attempts[0].latencyMs >= 0);
  await server.client.delete(`/api/v1/webhook/${encodeURIComponent(created.id)}`, { auth: acme.appID });
});

test('other event types, other companies, inactive webhooks and rolled-back changes are not notified', async () => {
  const w = (await create(acme, { name: 'created', event: 'OPENPIX:CHARGE_CREATED', url: `${receiver.url}/c` })).body
    .webhook;
  const off = (
    await create(acme, { name: 'off', event: 'OPENPIX:CHARGE_EXPIRED', url: `${receiver.url}/off`, isActive: false })
  ).body.webhook;
  await record(server, acme.companyId, 'OPENPIX:CHARGE_COMPLETED', chargePayload);
  await record(server, other.companyId, 'OPENPIX:CHARGE_CREATED', chargePayload);
  await record(server, acme.companyId, 'OPENPIX:CHARGE_EXPIRED', chargePayload);
  await server.database.db
    .transaction()
    .execute(async (trx) => {
      await recordEvent(trx, {
        companyId: acme.companyId,
        type: 'OPENPIX:CHARGE_CREATED',
        payload: chargePayload,
        at: new Date(),
      });
      throw new Error('the change failed');
    })
    .catch(() => undefined);
  await drain(server, 2);
  assert.is(receiver.requests.length, 0, JSON.stringify(receiver.requests.map((r) => [r.path, r.json])));
  const mine = await record(server, acme.companyId, 'OPENPIX:CHARGE_CREATED', chargePayload);
  await drain(server);
  assert.equal(
    receiver.requests.map((r) => r.headers['x-pixgate-event-id']),
    [mine],
  );
  for (const x of [w, off])
    await server.client.delete(`/api/v1/webhook/${encodeURIComponent(x.id)}`, { auth: acme.appID });
});

test('a receiver failing three times gets the event on the fourth attempt, same event id and body, after backoff', async () => {
  receiver.respond = (_req, i) => (i < 3 ? 503 : 200);
  const w = (await create(acme, { name: 'flaky', event: 'OPENPIX:TRANSACTION_RECEIVED', url: `${receiver.url}/flaky` }))
    .body.webhook;
  const eventId = await record(server, acme.companyId, 'OPENPIX:TRANSACTION_RECEIVED', {
    pix: { value: 100 },
    charge: null,
  });
  await drainUntil(async () => (await deliveriesOf(acme, w.id)).deliveries[0]?.status === 'SUCCEEDED');
  assert.is(receiver.requests.length, 4);
  assert.equal(new Set(receiver.requests.map((r) => r.headers['x-pixgate-event-id'])), new Set([eventId]));
  assert.equal(new Set(receiver.requests.map((r) => r.body)).size, 1);
  for (const r of receiver.requests)
    assert.ok(verifyHmacSignature(w.secret, r.body, r.headers['x-pixgate-signature'] as string).ok);
  const d = (await deliveriesOf(acme, w.id)).deliveries[0];
  assert.equal(
    d.attempts.map((a: any) => a.statusCode),
    [503, 503, 503, 200],
  );
  // Each retry waited at least its delay of the schedule (20, 40, 80 ms).
  const times = d.attempts.map((a: any) => Date.parse(a.time));
  [20, 40, 80].forEach((delay, i) =>
    assert.ok(
      times[i + 1] - times[i] >= delay,
      `retry ${i + 1} came ${times[i + 1] - times[i]} ms after the attempt before`,
    ),
  );
  await server.client.delete(`/api/v1/webhook/${encodeURIComponent(w.id)}`, { auth: acme.appID });
});

test('after the last retry the delivery fails; redeliver makes one attempt now and it succeeds', async () => {
  receiver.respond = () => 500;
  const w = (await create(acme, { name: 'down', event: 'OPENPIX:MOVEMENT_FAILED', url: `${receiver.url}/down` })).body
    .webhook;
  const eventId = await record(server, acme.companyId, 'OPENPIX:MOVEMENT_FAILED', {
    payment: { value: 1 },
    transaction: null,
    error: 'no funds',
  });
  await drain(server);
  const pending = (await deliveriesOf(acme, w.id)).deliveries[0];
  assert.is(pending.status, 'PENDING');
  assert.ok(Date.parse(pending.nextAttemptAt) > Date.parse(pending.attempts[0].time));
  await drainUntil(async () => (await deliveriesOf(acme, w.id)).deliveries[0].status !== 'PENDING');
  const failed = (await deliveriesOf(acme, w.id)).deliveries[0];
  assert.equal(
    [failed.status, failed.nextAttemptAt, failed.attempts.map((a: any) => a.statusCode)],
    ['FAILED', null, [500, 500, 500, 500]],
  );
  await drain(server, 2);
  assert.is(receiver.requests.length, 4);

  receiver.respond = () => 204;
  const path = `/api/v1/webhook/${encodeURIComponent(w.id)}/deliveries/${failed.id}/redeliver`;
  const res = await server.client.post(path, undefined, { auth: acme.appID });
  assert.is(res.status, 200, res.text);
  assert.equal(
    [res.body.delivery.status, res.body.delivery.attempts.map((a: any) => a.statusCode)],
    ['SUCCEEDED', [500, 500, 500, 500, 204]],
  );
  assert.is(receiver.requests.length, 5);
  assert.is(receiver.requests[4]!.headers['x-pixgate-event-id'], eventId);
  assert.is(receiver.requests[4]!.body, receiver.requests[0]!.body);
  // A succeeded delivery can be replayed; a failed replay does not change its status.
  receiver.respond = () => 500;
  const replay = await server.client.post(path, undefined, { auth: acme.appID });
  assert.equal(
    [replay.status, replay.body.delivery.status, replay.body.delivery.attempts.length],
    [200, 'SUCCEEDED', 6],
  );
  const unknown = await server.client.post(
    `/api/v1/webhook/${encodeURIComponent(w.id)}/deliveries/000000000000000000000000/redeliver`,
    undefined,
    { auth: acme.appID },
  );
  assert.equal([unknown.status, unknown.body], [404, { error: 'Delivery not found' }]);
  await server.client.delete(`/api/v1/webhook/${encodeURIComponent(w.id)}`, { auth: acme.appID });
});

test('a receiver slower than the timeout is a failed attempt; unreachable ones too', async () => {
  receiver.respond = () => ({ status: 200, delayMs: 3000 });
  const slow = (await create(acme, { name: 'slow', event: 'OPENPIX:MOVEMENT_REMOVED', url: `${receiver.url}/slow` }))
    .body.webhook;
  const closed = await startReceiver();
  await closed.close();
  const dead = (await create(acme, { name: 'dead', event: 'OPENPIX:MOVEMENT_REMOVED', url: `${closed.url}/dead` })).body
    .webhook;
  await record(server, acme.companyId, 'OPENPIX:MOVEMENT_REMOVED', { payment: { value: 1 }, transaction: null });
  await drain(server);
  const a = (await deliveriesOf(acme, slow.id)).deliveries[0].attempts[0];
  assert.equal(
    [a.statusCode, a.error, a.errorClass],
    [null, 'no answer within 400 ms (PIXGATE_WEBHOOK_TIMEOUT_MS)', 'TIMEOUT'],
  );
  // 399 too: a timer counts from the event loop's clock, read when the loop's turn began, so it
  // can end up to a millisecond before performance.now() says 400 ms have passed.
  assert.ok(a.latencyMs >= 399 && a.latencyMs < 2900, String(a.latencyMs));
  const b = (await deliveriesOf(acme, dead.id)).deliveries[0].attempts[0];
  assert.is(b.statusCode, null);
  assert.match(b.error, /^connection refused by 127\.0\.0\.1:\d+: nothing listens there \(.*ECONNREFUSED/);
  assert.is(b.errorClass, 'REFUSED');
  for (const x of [slow, dead])
    await server.client.delete(`/api/v1/webhook/${encodeURIComponent(x.id)}`, { auth: acme.appID });
});

test('the delivery log pages newest first; deleting the webhook stops its pending deliveries', async () => {
  receiver.respond = () => 500;
  const w = (await create(acme, { name: 'log', event: 'OPENPIX:CHARGE_EXPIRED', url: `${receiver.url}/log` })).body
    .webhook;
  const ids = [];
  for (let i = 0; i < 3; i++)
    ids.push(await record(server, acme.companyId, 'OPENPIX:CHARGE_EXPIRED', { charge: { n: i } }));
  await drain(server);
  const page = await server.client.get(`/api/v1/webhook/${encodeURIComponent(w.id)}/deliveries?skip=1&limit=1`, {
    auth: acme.appID,
  });
  // Three events and, oldest, the test event the webhook got when it was created.
  assert.equal(page.body.pageInfo, { skip: 1, limit: 1, totalCount: 4, hasPreviousPage: true, hasNextPage: true });
  assert.is(page.body.deliveries.length, 1);
  assert.is(page.body.deliveries[0].status, 'PENDING');
  const before = receiver.requests.length;
  await server.client.delete(`/api/v1/webhook/${encodeURIComponent(w.id)}`, { auth: acme.appID });
  await sleep(150);
  await drain(server, 2);
  assert.is(receiver.requests.length, before);
  const gone = await server.client.get(`/api/v1/webhook/${encodeURIComponent(w.id)}/deliveries`, { auth: acme.appID });
  assert.is(gone.status, 404);
});

test('a webhook deleted while an attempt is in flight: the attempt ends quietly, nothing is kept', async () => {
  receiver.respond = () => ({ status: 200, delayMs: 200 });
  const w = (await create(acme, { name: 'racing', event: 'OPENPIX:CHARGE_CREATED', url: `${receiver.url}/racing` }))
    .body.webhook;
  await record(server, acme.companyId, 'OPENPIX:CHARGE_CREATED', {
    charge: { value: 1 },
    event: 'forged',
    eventId: 'forged',
  });
  const run = server.services.webhookDelivery.runOnce();
  await receiver.waitFor(1);
  assert.is(
    (await server.client.delete(`/api/v1/webhook/${encodeURIComponent(w.id)}`, { auth: acme.appID })).status,
    200,
  );
  // The event, and the test event the webhook got when it was created.
  assert.equal((await run).attempted, 2);
  // The payload cannot overwrite the event name or id.
  assert.equal(
    [receiver.requests[0]!.json.event, receiver.requests[0]!.json.eventId],
    ['OPENPIX:CHARGE_CREATED', receiver.requests[0]!.headers['x-pixgate-event-id']],
  );
  const left = await server.database.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', w.id)
    .execute();
  assert.equal(left, []);
});

test.run();
