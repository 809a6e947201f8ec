// The events API: what happened in a company, newest first, on the company's clock; filters,
// keyset paging that neither skips nor repeats while events arrive; one event with its
// deliveries; the PIXGATE: events of the state changes that had none (keys, funds recovery,
// KYC, subscriptions, a charge deleted); retention.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENT_RETENTION_JOB } from '../../src/events/events.module';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from '../webhooks/receiver';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let receiver: Receiver;

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h' }, { backgroundJobs: false });
  a = await createCompany(server.client, { name: 'Loja Aurora' });
  b = await createCompany(server.client, { name: 'Loja Boreal' });
  receiver = await startReceiver();
});
test.after(async () => {
  await receiver.close();
  await server.close();
});

const list = async (company: TestCompany, query = '') => {
  const res = await server.client.get(`/api/v1/events${query ? `?${query}` : ''}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body as { events: any[]; pageInfo: any; nextCursor: string | null };
};
const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

async function pay(brCode: string): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pay', {
    brCode,
    payer: { name: 'Joao Souza', taxID: '26801573110' },
  });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

test("a charge's life: newest first, its ids, the company's clock, the body its webhook got", async () => {
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'paid', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/paid` } },
    { auth: a.appID },
  );
  assert.is(hook.status, 200, hook.text);
  // The company's clock runs two days ahead: events are on it.
  const moved = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 2 * 86_400 }, { auth: a.appID });
  assert.is(moved.status, 200, moved.text);
  const charge = (
    await server.client.post('/api/v1/charge', { correlationID: 'pedido-1', value: 1234 }, { auth: a.appID })
  ).body.charge;
  const e2e = await pay(charge.brCode);
  await drain(server);

  const { events } = await list(a, 'correlationID=pedido-1');
  assert.equal(types(events).sort(), [
    'OPENPIX:CHARGE_COMPLETED',
    'OPENPIX:CHARGE_CREATED',
    'OPENPIX:TRANSACTION_RECEIVED',
  ]);
  assert.is(events[events.length - 1].type, 'OPENPIX:CHARGE_CREATED', 'newest first: the creation is last');
  const completed = events.find((e) => e.type === 'OPENPIX:CHARGE_COMPLETED');
  assert.equal(completed.object, { type: 'charge', id: charge.globalID, correlationID: 'pedido-1' });
  assert.is(completed.isTest, false);
  const ahead = Date.parse(completed.createdAt) - Date.now();
  assert.ok(ahead > 2 * 86_400_000 - 60_000 && ahead < 2 * 86_400_000 + 60_000, `${ahead} ms ahead`);
  // The payload is the body the webhook got, byte for byte once parsed.
  const delivered = receiver.requests.find((r) => r.headers['x-pixgate-event-id'] === completed.id);
  assert.ok(delivered, 'the webhook got the event');
  assert.equal(completed.payload, delivered!.json);
  // The Pix, by its endToEndId: the platform's event and the Pix API's callback.
  const byPix = await list(a, `objectId=${e2e}`);
  assert.equal(types(byPix.events).sort(), ['OPENPIX:TRANSACTION_RECEIVED', 'PIX_API:PIX']);
  const callback = byPix.events.find((e) => e.type === 'PIX_API:PIX');
  assert.equal(callback.object, { type: 'pix', id: e2e, correlationID: charge.transactionID });
  assert.equal(Object.keys(callback.payload), ['pix'], 'the standard body');

  // Read alone, with its delivery.
  const read = await server.client.get(`/api/v1/events/${completed.id}`, { auth: a.appID });
  assert.is(read.status, 200, read.text);
  const { deliveries, ...event } = read.body.event;
  assert.equal(event, completed);
  assert.equal(
    deliveries.map((d: any) => [d.webhookId, d.webhookKind, d.status, d.attempts, d.lastStatusCode, d.isTest]),
    [[hook.body.webhook.id, 'PLATFORM', 'SUCCEEDED', 1, 200, false]],
  );
  // Another company sees none of it.
  assert.is((await server.client.get(`/api/v1/events/${completed.id}`, { auth: b.appID })).status, 404);
  assert.equal((await list(b, 'correlationID=pedido-1')).events, []);
});

test('filters: repeated types, period on the company clock; bad input is refused in the API format', async () => {
  const base = Date.now() + 10 * 86_400_000;
  const at = (days: number) => new Date(base + days * 86_400_000);
  for (const [type, days] of [
    ['OPENPIX:MOVEMENT_CONFIRMED', 0],
    ['OPENPIX:MOVEMENT_FAILED', 1],
    ['OPENPIX:MOVEMENT_REMOVED', 2],
  ] as const) {
    await server.database.db
      .insertInto('events')
      .values({
        id: `filter-${days}`,
        company_id: b.companyId,
        type,
        payload: JSON.stringify({ payment: { id: `p-${days}`, correlationID: `pay-${days}` } }),
        created_at: at(days),
        dispatched_at: new Date(),
        object_type: 'payment',
        object_id: `p-${days}`,
        correlation_id: `pay-${days}`,
      })
      .execute();
  }
  const both = await list(b, 'type=OPENPIX:MOVEMENT_CONFIRMED&type=OPENPIX:MOVEMENT_REMOVED');
  assert.equal(types(both.events), ['OPENPIX:MOVEMENT_REMOVED', 'OPENPIX:MOVEMENT_CONFIRMED']);
  assert.is(both.pageInfo.totalCount, 2);
  const period = await list(b, `start=${at(0.5).toISOString()}&end=${at(2).toISOString()}`);
  assert.equal(types(period.events), ['OPENPIX:MOVEMENT_FAILED'], 'start inclusive, end exclusive');
  assert.equal(types((await list(b, 'objectId=p-2')).events), ['OPENPIX:MOVEMENT_REMOVED']);

  const refused = async (query: string, field: string) => {
    const res = await server.client.get(`/api/v1/events?${query}`, { auth: b.appID });
    assert.is(res.status, 400, `${query}: ${res.text}`);
    assert.ok(
      res.body.details?.some((d: { field: string }) => d.field.includes(field)),
      `${query}: ${res.text}`,
    );
  };
  await refused('type=OPENPIX:NOT_AN_EVENT', 'type');
  await refused(`start=${at(1).toISOString()}&end=${at(0).toISOString()}`, 'end');
  await refused('cursor=bm90LWEtY3Vyc29y', 'cursor');
  await refused('limit=101', 'limit');
});

test('keyset paging: events arriving meanwhile are neither skipped nor repeated', async () => {
  const c = await createCompany(server.client, { name: 'Loja Cometa' });
  const made: string[] = [];
  for (let i = 0; i < 7; i++)
    made.push(await record(server, c.companyId, 'OPENPIX:CHARGE_CREATED', { charge: { n: i } }));
  // The whole list, newest first (events of the same millisecond by id).
  const all = (await list(c, 'type=OPENPIX:CHARGE_CREATED&limit=100')).events.map((e) => e.id);
  assert.equal([...all].sort(), [...made].sort());
  const seen: string[] = [];
  let page = await list(c, 'type=OPENPIX:CHARGE_CREATED&limit=3');
  assert.equal(page.pageInfo, { skip: 0, limit: 3, totalCount: 7, hasPreviousPage: false, hasNextPage: true });
  for (;;) {
    seen.push(...page.events.map((e) => e.id));
    // Newer events arrive between pages: they belong before the first page, not in the walk.
    await record(server, c.companyId, 'OPENPIX:CHARGE_CREATED', { charge: { late: true } });
    if (!page.nextCursor) break;
    page = await list(c, `type=OPENPIX:CHARGE_CREATED&limit=3&cursor=${page.nextCursor}`);
    assert.is(page.pageInfo.hasPreviousPage, true);
  }
  assert.equal(seen, all);
  // skip still works, counted from the start (or from the cursor).
  const skipped = await list(c, 'type=OPENPIX:CHARGE_CREATED&skip=3&limit=1');
  assert.is(skipped.events.length, 1);
});

test('state changes with no event before record one: keys, subscriptions, a deleted charge, KYC, MED', async () => {
  const auth = { auth: a.appID };
  // Pix keys.
  const key = (await server.client.post('/api/v1/pix-keys', { key: 'evp', type: 'EVP' }, auth)).body.key;
  assert.is((await server.client.put(`/api/v1/pix-keys/${key}/default`, undefined, auth)).status, 200);
  const other = (await server.client.post('/api/v1/pix-keys', { key: 'evp', type: 'EVP' }, auth)).body.key;
  assert.is((await server.client.delete(`/api/v1/pix-keys/${other}`, auth)).status, 204);
  const keyEvents = (
    await list(a, 'type=PIXGATE:PIX_KEY_CREATED&type=PIXGATE:PIX_KEY_DEFAULT_CHANGED&type=PIXGATE:PIX_KEY_DELETED')
  ).events;
  assert.equal(
    keyEvents.map((e) => [e.type, e.object.id, e.payload.pixKey.isDefault]),
    [
      ['PIXGATE:PIX_KEY_DELETED', other, false],
      ['PIXGATE:PIX_KEY_CREATED', other, false],
      ['PIXGATE:PIX_KEY_DEFAULT_CHANGED', key, true],
      ['PIXGATE:PIX_KEY_CREATED', key, false],
    ],
  );
  // A subscription created, its value changed, cancelled.
  const sub = await server.client.post(
    '/api/v1/subscriptions',
    {
      value: 5_000,
      correlationID: 'plano-1',
      customer: { name: 'Mariana Alves Costa', taxID: '52998224725', email: 'mariana.costa@email.com.br' },
      frequency: 'MONTHLY',
      dayGenerateCharge: 1,
    },
    auth,
  );
  assert.is(sub.status, 200, sub.text);
  const subId = encodeURIComponent(sub.body.subscription.globalID);
  assert.is((await server.client.put(`/api/v1/subscriptions/${subId}/value`, { value: 6_000 }, auth)).status, 200);
  assert.is((await server.client.put(`/api/v1/subscriptions/${subId}/cancel`, undefined, auth)).status, 200);
  const subEvents = (await list(a, 'correlationID=plano-1')).events;
  assert.equal(
    subEvents.map((e) => [e.type, e.object.id, e.payload.subscription.value, e.payload.subscription.status]),
    [
      ['PIXGATE:SUBSCRIPTION_CANCELED', sub.body.subscription.globalID, 6_000, 'CANCELED'],
      ['PIXGATE:SUBSCRIPTION_VALUE_CHANGED', sub.body.subscription.globalID, 6_000, 'ACTIVE'],
      ['PIXGATE:SUBSCRIPTION_CREATED', sub.body.subscription.globalID, 5_000, 'ACTIVE'],
    ],
  );
  // A charge deleted.
  const charge = (await server.client.post('/api/v1/charge', { correlationID: 'pedido-2', value: 990 }, auth)).body;
  assert.is((await server.client.delete('/api/v1/charge/pedido-2', auth)).status, 200);
  const deleted = (await list(a, 'type=PIXGATE:CHARGE_DELETED&correlationID=pedido-2')).events;
  assert.equal(
    deleted.map((e) => [e.object.id, e.payload.charge.status, e.payload.company.id, e.payload.account.accountId]),
    [[charge.charge.globalID, 'EXPIRED', a.companyId, a.accountId]],
  );
  assert.is((await server.client.delete('/api/v1/charge/pedido-2', auth)).status, 200);
  assert.is((await list(a, 'type=PIXGATE:CHARGE_DELETED')).events.length, 1, 'deleting again changes nothing');
});

test('KYC onboardings and funds recoveries record their moves', async () => {
  const auth = { auth: a.appID };
  const onboarding = await server.client.post(
    '/api/v1/kyc/onboarding',
    { taxID: '11222333000181', correlationID: 'onb-1', representatives: [{ taxID: '52998224725' }] },
    auth,
  );
  assert.is(onboarding.status, 201, onboarding.text);
  // The same correlationID again creates nothing: no second event.
  assert.is(
    (await server.client.post('/api/v1/kyc/onboarding', { taxID: '11222333000181', correlationID: 'onb-1' }, auth))
      .status,
    200,
  );
  const submitted = await server.client.post('/api/v1/kyc/onboarding/onb-1/submit', undefined, auth);
  assert.is(submitted.status, 200, submitted.text);
  const link = submitted.body.onboarding.link;
  assert.is((await server.client.post('/api/v1/sandbox/kyc/review', { link, decision: 'APPROVED' })).status, 200);
  const kyc = (await list(a, 'correlationID=onb-1')).events;
  assert.equal(
    kyc.map((e) => [e.type, e.object.type, e.payload.onboarding.status]),
    [
      ['PIXGATE:KYC_ONBOARDING_APPROVED', 'kycOnboarding', 'APPROVED'],
      ['PIXGATE:KYC_ONBOARDING_SUBMITTED', 'kycOnboarding', 'SUBMITTED'],
      ['PIXGATE:KYC_ONBOARDING_CREATED', 'kycOnboarding', 'PENDING'],
    ],
  );

  // A Pix sent, then a recovery opened for it and moved by the sandbox's analysis.
  const received = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: a.pixKey,
    value: 10_000,
    payer: { name: 'Joao Pedro Martins', taxID: '26801573110' },
  });
  assert.is(received.status, 200, received.text);
  const payment = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 990,
      destinationAlias: 'fornecedor@tecidosbrasil.com.br',
      destinationAliasType: 'EMAIL',
      correlationID: 'med-1',
      autoApprove: true,
    },
    auth,
  );
  assert.is(payment.status, 200, payment.text);
  const opened = await server.client.post(
    '/api/v1/funds-recovery',
    {
      transactionEndToEndId: payment.body.transaction.endToEndId,
      situationType: 'SCAM',
      details: 'Golpe por WhatsApp',
    },
    auth,
  );
  assert.is(opened.status, 201, opened.text);
  const dictId = opened.body.fundsRecovery.dictId;
  const advanced = await server.client.post(`/api/v1/sandbox/funds-recovery/${dictId}/advance`, {
    status: 'AWAITING_ANALYSIS',
  });
  assert.is(advanced.status, 200, advanced.text);
  const med = (await list(a, `objectId=${dictId}`)).events;
  assert.equal(
    med.map((e) => [e.type, e.payload.fundsRecovery.status, e.payload.fundsRecovery.blockedValue]),
    [
      ['PIXGATE:FUNDS_RECOVERY_UPDATED', 'AWAITING_ANALYSIS', advanced.body.fundsRecovery.blockedValue],
      ['PIXGATE:FUNDS_RECOVERY_CREATED', 'CREATED', 0],
    ],
  );
});

test('events are kept 30 days on the company clock, then go with their deliveries; a delivery still retried keeps its event', async () => {
  const c = await createCompany(server.client, { name: 'Loja Duna' });
  receiver.respond = () => 500;
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'down', event: 'OPENPIX:MOVEMENT_FAILED', url: `${receiver.url}/down` } },
    { auth: c.appID },
  );
  assert.is(hook.status, 200, hook.text);
  const old = await record(server, c.companyId, 'OPENPIX:CHARGE_CREATED', { charge: { old: true } });
  const retried = await record(server, c.companyId, 'OPENPIX:MOVEMENT_FAILED', { payment: { id: 'x' } });
  await drain(server);
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 29 * 86_400 }, { auth: c.appID });
  await server.services.jobs.runNow(EVENT_RETENTION_JOB);
  assert.is((await list(c, 'limit=100')).pageInfo.totalCount, 3, 'all kept at 29 days');
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 2 * 86_400 }, { auth: c.appID });
  const recent = await record(server, c.companyId, 'OPENPIX:CHARGE_CREATED', { charge: { recent: true } });
  // The failing delivery is still pending (its retry is an hour after the moved clock's now).
  const pending = await server.database.db
    .selectFrom('webhook_deliveries')
    .select('status')
    .where('event_id', '=', retried)
    .executeTakeFirstOrThrow();
  assert.is(pending.status, 'PENDING');
  await server.services.jobs.runNow(EVENT_RETENTION_JOB);
  const left = (await list(c, 'limit=100')).events.map((e) => e.id);
  assert.equal(left.sort(), [recent, retried].sort(), 'the old event and the webhook test event went');
  assert.is((await server.client.get(`/api/v1/events/${old}`, { auth: c.appID })).status, 404);
  const testDelivery = await server.database.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', hook.body.webhook.id)
    .where('is_test', '=', true)
    .execute();
  assert.equal(testDelivery, [], 'its delivery and attempts went with it');
  // Other companies' events are on their own clocks: untouched.
  assert.ok((await list(a)).pageInfo.totalCount > 0);
  receiver.respond = () => 200;
});

test.run();
