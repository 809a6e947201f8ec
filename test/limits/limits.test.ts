// Pix-out limits enforced on payments and withdrawals: per transaction and per day by
// period (daytime, nighttime 20:00-06:00 Brasília time on the server clock), and per month.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dayWindows, isNighttime, localDate, monthWindow } from '../../src/limits/brasilia-time';
import { usage } from '../../src/limits/limits.repository';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, approve, balanceOf, fund, OUTSIDE_KEY, pay } from '../payments/helpers';

let server: TestServer;
let c: TestCompany;
let n = 0;

test.before(async () => {
  server = await startTestServer();
  c = await createCompany(server.client);
  await fund(server, c.accountId, 10_000_000);
  await server.database.db
    .insertInto('account_limits')
    .values({
      account_id: c.accountId,
      daytime_per_transaction: 50_000,
      daytime_daily: 100_000,
      nighttime_per_transaction: 10_000,
      nighttime_daily: 15_000,
      monthly: 1_000_000,
      min_free_withdraw_value: 0,
      withdraw_fee: 0,
      updated_at: new Date(),
    })
    .execute();
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const send = (value: number, autoApprove = true) =>
  pay(server, c, {
    type: 'PIX_KEY',
    value,
    destinationAlias: OUTSIDE_KEY,
    destinationAliasType: 'EMAIL',
    correlationID: `lim-${++n}`,
    autoApprove,
  });
const withdraw = (value: number) =>
  server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value }, { auth: c.appID });
const limits = async () => (await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: c.appID })).body.limits;

test('Brasília time: night from 20:00 to 06:00, days and months in local time', () => {
  assert.is(isNighttime(new Date('2026-03-10T22:59:00Z')), false, '19:59 local');
  assert.is(isNighttime(new Date('2026-03-10T23:00:00Z')), true, '20:00 local');
  assert.is(isNighttime(new Date('2026-03-11T08:59:00Z')), true, '05:59 local');
  assert.is(isNighttime(new Date('2026-03-11T09:00:00Z')), false, '06:00 local');
  assert.is(localDate(new Date('2026-03-11T02:00:00Z')), '2026-03-10');
  const day = dayWindows(new Date('2026-03-11T02:00:00Z'));
  assert.equal(
    [day.start, day.nightEnds, day.nightStarts, day.end].map((d) => d.toISOString()),
    ['2026-03-10T03:00:00.000Z', '2026-03-10T09:00:00.000Z', '2026-03-10T23:00:00.000Z', '2026-03-11T03:00:00.000Z'],
  );
  const month = monthWindow(new Date('2026-12-31T23:30:00Z'));
  assert.equal(
    [month.start, month.end].map((d) => d.toISOString()),
    ['2026-12-01T03:00:00.000Z', '2027-01-01T03:00:00.000Z'],
  );
});

test('daytime: per transaction, then per day (payments and withdrawals add up)', async () => {
  await advanceToLocalHour(server, 10, c);
  const over = await send(50_001);
  assert.equal(over.body, { error: 'Value exceeds the daytime limit per transaction (50000 cents)' });
  assert.is((await send(50_000)).body.payment.status, 'CONFIRMED');
  assert.is((await withdraw(30_000)).status, 200);
  const daily = await send(20_001);
  assert.equal(daily.body, { error: 'Value exceeds the daytime daily limit (100000 cents, 80000 already used today)' });
  assert.equal(await withdraw(20_001).then((r) => r.body), {
    error: 'Value exceeds the daytime daily limit (100000 cents, 80000 already used today)',
  });
  assert.is((await send(20_000)).body.payment.status, 'CONFIRMED');
  const l = await limits();
  assert.equal([l.daytime.usedToday, l.nighttime.usedToday], [100_000, 0]);
});

test('an approval over the limit answers 400 and leaves the payment CREATED; nothing moves', async () => {
  const before = await balanceOf(server, c);
  const created = await send(1, false);
  assert.is(created.body.payment.status, 'CREATED');
  const refused = await approve(server, c, created.body.payment.correlationID);
  assert.is(refused.status, 400);
  assert.ok(refused.body.error.startsWith('Value exceeds the daytime daily limit'), refused.text);
  assert.is(
    (await server.client.get(`/api/v1/payment/${created.body.payment.id}`, { auth: c.appID })).body.payment.status,
    'CREATED',
  );
  assert.equal(await balanceOf(server, c), before);
});

test('nighttime has its own limits and usage the same day', async () => {
  await advanceToLocalHour(server, 21, c);
  assert.equal((await send(10_001)).body, { error: 'Value exceeds the nighttime limit per transaction (10000 cents)' });
  assert.is((await send(10_000)).body.payment.status, 'CONFIRMED');
  assert.equal((await withdraw(5_001)).body, {
    error: 'Value exceeds the nighttime daily limit (15000 cents, 10000 already used today)',
  });
  assert.is((await withdraw(5_000)).status, 200);
  const l = await limits();
  assert.equal([l.daytime.usedToday, l.nighttime.usedToday], [100_000, 15_000]);
});

test('a new day starts fresh; the month keeps counting', async () => {
  await advanceToLocalHour(server, 10, c);
  const l = await limits();
  assert.equal([l.daytime.usedToday, l.nighttime.usedToday], [0, 0]);
  // The payment left CREATED yesterday can be approved today.
  const waiting = (await server.client.get('/api/v1/payment?limit=100', { auth: c.appID })).body.payments.find(
    (p: { payment: { status: string } }) => p.payment.status === 'CREATED',
  );
  assert.is((await approve(server, c, waiting.payment.correlationID)).body.payment.status, 'CONFIRMED');
  // This month's usage so far (the clock may have crossed into a new month meanwhile).
  const now = await server.services.clock.now(c.companyId);
  const day = dayWindows(now);
  const month = monthWindow(now);
  const used = (
    await usage(server.database.db, c.accountId, {
      monthStart: month.start,
      monthEnd: month.end,
      dayStart: day.start,
      nightEnds: day.nightEnds,
      nightStarts: day.nightStarts,
      dayEnd: day.end,
    })
  ).month;
  await server.database.db
    .updateTable('account_limits')
    .set({ monthly: used + 20_000 })
    .where('account_id', '=', c.accountId)
    .execute();
  assert.is((await send(20_000)).body.payment.status, 'CONFIRMED');
  assert.equal((await send(1)).body, {
    error: `Value exceeds the monthly limit (${used + 20_000} cents, ${used + 20_000} already used this month)`,
  });
  assert.is((await withdraw(1)).status, 400);
});

test.run();
