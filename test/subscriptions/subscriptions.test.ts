// Subscriptions: create (with or without fines and interests), read by global id, and the
// job generating one charge per period on the server clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { firstChargeAt, nextChargeAt, normalizeFrequency } from '../../src/subscriptions/schedule';
import { auditLedger } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const customer = { name: 'Mariana Alves Costa', taxID: '52998224725', email: 'mariana.costa@email.com.br' };

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  a = await createCompany(server.client, { name: 'Academia Aurora' });
  b = await createCompany(server.client, { name: 'Academia Boreal' });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const create = (company: TestCompany, body: Record<string, unknown>) =>
  server.client.post('/api/v1/subscriptions', body, { auth: company.appID });
const charges = async (company: TestCompany, subscription: string) => {
  const res = await server.client.get(`/api/v1/charge?subscription=${encodeURIComponent(subscription)}&limit=100`, {
    auth: company.appID,
  });
  assert.is(res.status, 200, res.text);
  return res.body.charges as Array<Record<string, any>>;
};
const runJob = () => server.services.jobs.runNow('subscriptions.charges');
// Both companies' clocks move together.
const advanceDays = async (days: number) => {
  const moved = await server.client.post(
    '/api/v1/sandbox/clock/advance',
    { seconds: days * 86_400 },
    { auth: a.appID },
  );
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: days * 86_400 }, { auth: b.appID });
  return moved;
};

test('schedule: next day of the month (today included), clamped months, weekly, date-time', () => {
  const now = new Date('2026-03-15T14:00:00Z');
  assert.equal(firstChargeAt(now, 15), { at: new Date('2026-03-15T00:00:00Z'), day: 15 });
  assert.equal(firstChargeAt(now, 5), { at: new Date('2026-04-05T00:00:00Z'), day: 5 });
  assert.equal(firstChargeAt(new Date('2026-02-10T00:00:00Z'), 31), { at: new Date('2026-02-28T00:00:00Z'), day: 31 });
  assert.equal(firstChargeAt(now, '2026-04-01T09:30:00Z'), { at: new Date('2026-04-01T09:30:00Z'), day: 1 });
  assert.equal(nextChargeAt(new Date('2026-02-28T00:00:00Z'), 'MONTHLY', 31), new Date('2026-03-31T00:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-01-31T00:00:00Z'), 'MONTHLY', 31), new Date('2026-02-28T00:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-03-15T08:00:00Z'), 'WEEKLY', 15), new Date('2026-03-22T08:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-03-15T00:00:00Z'), 'SEMIANNUALLY', 15), new Date('2026-09-15T00:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-12-15T00:00:00Z'), 'ANNUALLY', 15), new Date('2027-12-15T00:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-12-31T00:00:00Z'), 'BIMONTHLY', 31), new Date('2027-02-28T00:00:00Z'));
  assert.equal(nextChargeAt(new Date('2026-11-30T00:00:00Z'), 'TRIMONTHLY', 30), new Date('2027-02-28T00:00:00Z'));
  assert.equal(
    [normalizeFrequency('SEMIANNUALY'), normalizeFrequency('ANNUALY'), normalizeFrequency('BIMONTHLY')],
    ['SEMIANNUALLY', 'ANNUALLY', 'BIMONTHLY'],
  );
});

test('frequency: the spellings existing clients send are stored as the canonical ones; unknown ones are refused', async () => {
  const semi = await create(a, { value: 5_000, customer, frequency: 'SEMIANNUALY', dayGenerateCharge: 1 });
  assert.is(semi.status, 200, semi.text);
  assert.is(semi.body.subscription.frequency, 'SEMIANNUALLY');
  const quarterly = await create(a, { value: 5_000, customer, frequency: 'TRIMONTHLY', dayGenerateCharge: 1 });
  assert.is(quarterly.body.subscription.frequency, 'TRIMONTHLY');
  const bad = await create(a, { value: 5_000, customer, frequency: 'DAILY', dayGenerateCharge: 1 });
  assert.is(bad.status, 400, bad.text);
  assert.ok(
    bad.body.details.some((d: { field: string }) => d.field.includes('frequency')),
    bad.text,
  );
});

test('creates with fines and interests and reads it back by global id; duplicates and tenancy', async () => {
  const res = await create(a, {
    name: 'Plano Academia Mensal',
    value: 12_990,
    correlationID: 'academia-1',
    customer,
    frequency: 'MONTHLY',
    dayGenerateCharge: 5,
    dayDue: 7,
    interests: { value: 33 },
    fines: { value: 200 },
  });
  assert.is(res.status, 200, res.text);
  const s = res.body.subscription;
  assert.match(Buffer.from(s.globalID, 'base64').toString(), /^PaymentSubscription:[0-9a-f]{24}$/);
  assert.match(s.paymentLinkUrl, new RegExp(`^http://localhost:${new URL(server.url).port}/pay/[0-9a-f-]{36}$`));
  assert.equal(
    { ...s, globalID: 'g', createdAt: 't', customer: { name: s.customer.name, taxID: s.customer.taxID } },
    {
      globalID: 'g',
      name: 'Plano Academia Mensal',
      value: 12_990,
      customer: { name: 'Mariana Alves Costa', taxID: { taxID: '52998224725', type: 'BR:CPF' } },
      dayGenerateCharge: 5,
      dayDue: 7,
      type: 'RECURRENT',
      chargeType: 'OVERDUE',
      frequency: 'MONTHLY',
      isActive: true,
      status: 'ACTIVE',
      correlationID: 'academia-1',
      paymentLinkUrl: s.paymentLinkUrl,
      interests: { value: 33 },
      fines: { value: 200 },
      createdAt: 't',
    },
  );
  const got = await server.client.get(`/api/v1/subscriptions/${encodeURIComponent(s.globalID)}`, { auth: a.appID });
  assert.equal([got.status, got.body], [200, { subscription: s }]);
  assert.equal(
    await server.client
      .get(`/api/v1/subscriptions/${encodeURIComponent(s.globalID)}`, { auth: b.appID })
      .then((r) => [r.status, r.body]),
    [404, { error: 'Subscription not found' }],
  );
  assert.equal(await create(a, { value: 100, correlationID: 'academia-1', customer }).then((r) => [r.status, r.body]), [
    400,
    { error: 'Subscription with this correlationID already exists' },
  ]);
  // Without fines and interests: no such fields; defaults.
  const plain = (
    await create(a, {
      value: 3_990,
      correlationID: 'streaming-1',
      customer: { name: 'Rafael Souza Lima', taxID: '39053344705' },
    })
  ).body.subscription;
  assert.equal(
    [plain.interests, plain.fines, plain.frequency, plain.type, plain.dayDue],
    [undefined, undefined, 'MONTHLY', 'RECURRENT', 7],
  );
  // Without a correlationID (existing clients send none), one is made up, and each call is a new subscription.
  const [first, second] = await Promise.all([
    create(a, { value: 990, customer, dayGenerateCharge: 5 }),
    create(a, { value: 990, customer, dayGenerateCharge: 5 }),
  ]);
  assert.is(first.status, 200, first.text);
  assert.is(second.status, 200, second.text);
  assert.match(first.body.subscription.correlationID, /^subscription-[0-9a-f-]{36}$/);
  assert.is.not(first.body.subscription.correlationID, second.body.subscription.correlationID);
  // Bad input.
  assert.is((await create(a, { value: 100, correlationID: 'x', customer, dayDue: 2 })).status, 400);
  assert.is(
    (await create(a, { value: 100, correlationID: 'x', customer: { name: 'Sem documento', taxID: '11111111111' } }))
      .status,
    400,
  );
  assert.is((await create(a, { value: 0, correlationID: 'x', customer })).status, 400);
});

test('the job generates one OVERDUE charge per period, linked to the subscription, until installmentCount', async () => {
  const now = await server.services.clock.now(b.companyId);
  const day = now.getUTCDate();
  const res = await create(b, {
    name: 'Semanal',
    value: 2_500,
    correlationID: 'semanal-1',
    customer,
    frequency: 'WEEKLY',
    dayGenerateCharge: day,
    dayDue: 3,
    installmentCount: 3,
    fines: { value: 200 },
    interests: { value: 33 },
  });
  assert.is(res.status, 200, res.text);
  await runJob();
  let list = await charges(b, 'semanal-1');
  assert.is(list.length, 1);
  const c = list[0]!;
  assert.equal(
    [c.value, c.type, c.status, c.fines, c.interests, c.customer?.taxID?.taxID],
    [2_500, 'OVERDUE', 'ACTIVE', { value: 200 }, { value: 33 }, '52998224725'],
  );
  // Running again in the same period makes nothing.
  await runJob();
  assert.is((await charges(b, 'semanal-1')).length, 1);
  // A jump of three weeks: the two remaining periods at once, then COMPLETED.
  assert.is((await advanceDays(21)).status, 200);
  await runJob();
  list = await charges(b, 'semanal-1');
  assert.is(list.length, 3);
  const sub = (
    await server.client.get(`/api/v1/subscriptions/${encodeURIComponent(res.body.subscription.globalID)}`, {
      auth: b.appID,
    })
  ).body.subscription;
  assert.equal([sub.status, sub.isActive], ['COMPLETED', false]);
  await advanceDays(14);
  await runJob();
  assert.is((await charges(b, 'semanal-1')).length, 3);
  // Other subscriptions' charges are not listed under this one.
  assert.is((await charges(a, 'semanal-1')).length, 0);
});

test('chargeType DYNAMIC: charges expire dayDue days after generation; fines are refused; the payment link shows the latest charge', async () => {
  const refused = await create(a, { value: 990, customer, chargeType: 'DYNAMIC', fines: { value: 200 } });
  assert.equal(
    [refused.status, refused.body],
    [400, { error: 'fines and interests apply only to OVERDUE charges (chargeType)' }],
  );
  const day = (await server.services.clock.now(a.companyId)).getUTCDate();
  const res = await create(a, {
    name: 'Clube do Livro',
    value: 3_990,
    correlationID: 'livro-1',
    customer,
    chargeType: 'DYNAMIC',
    dayGenerateCharge: day + 1 > 28 ? 1 : day + 1,
    dayDue: 4,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.subscription.chargeType, 'DYNAMIC');
  const link = new URL(res.body.subscription.paymentLinkUrl).pathname;
  // Nothing generated yet: the page says so and offers no code.
  let page = await server.client.get(link);
  assert.is(page.status, 200);
  assert.match(page.text, /Clube do Livro/);
  assert.match(page.text, /Nenhuma cobrança a pagar ainda/);
  assert.not.match(page.text, /id="brcode"/);
  await advanceDays(31);
  await runJob();
  const list = await charges(a, 'livro-1');
  assert.ok(list.length >= 1);
  const latest = list.find((c) => c.correlationID.endsWith(`-${list.length}`))!;
  assert.equal([latest.type, latest.expiresIn, latest.value, latest.status], ['DYNAMIC', 4 * 86_400, 3_990, 'ACTIVE']);
  page = await server.client.get(link);
  assert.is(page.status, 200);
  assert.ok(page.text.includes(latest.brCode.replace(/&/g, '&amp;')), 'the page shows the latest charge');
  assert.match(page.text, /R\$ 39,90/);
});

test.run();
