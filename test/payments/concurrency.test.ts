// No double spend on the real Postgres: concurrent payments, approvals, withdrawals and
// lookups against a balance (or limit, or bucket) that covers only some of them end with
// exactly the covered ones done, the rest refused with a clear error, and the ledger right.
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, approve, balanceOf, fund, OUTSIDE_KEY, pay } from './helpers';

let server: TestServer;
// Only the real Postgres runs requests in parallel: on the embedded database (one connection)
// these tests are skipped, and shown as skipped, rather than passing without asserting.
// A company whose clock reads 10:05 in Brasília (daytime limits apply).
async function dayCompany(): Promise<TestCompany> {
  const company = await createCompany(server.client);
  await advanceToLocalHour(server, 10, company);
  return company;
}

const INSUFFICIENT = 'Account does not have enough balance to complete the operation';

test.before(async () => {
  server = await startTestServer();
  assert.is(server.database.kind, process.env.DATABASE_URL ? 'postgres' : 'embedded');
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const keyPayment = (correlationID: string, value: number, autoApprove = true) => ({
  type: 'PIX_KEY',
  value,
  destinationAlias: OUTSIDE_KEY,
  destinationAliasType: 'EMAIL',
  correlationID,
  autoApprove,
});

function tally(answers: Array<{ status: number; body: any }>) {
  const out: Record<string, number> = {};
  for (const r of answers) {
    const k = r.status === 200 ? `200 ${r.body.payment?.status ?? 'OK'}` : `${r.status} ${r.body.error}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

// On both databases (the embedded one serializes the requests, and must end the same).
test('12 concurrent auto-approved payments against a balance for 7: exactly 7 confirmed', async () => {
  const c = await dayCompany();
  await fund(server, c.accountId, 7_500);
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => pay(server, c, keyPayment(`race-${i}`, 1_000))),
  );
  assert.equal(tally(answers), { '200 CONFIRMED': 7, [`400 ${INSUFFICIENT}`]: 5 });
  assert.equal(await balanceOf(server, c), {
    total: 500,
    blocked: 0,
    available: 500,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  } as never);
  const stored = (await server.client.get('/api/v1/payment?limit=100', { auth: c.appID })).body.payments;
  assert.is(stored.length, 7, 'refused auto-approvals are not stored');
});

postgresOnly(
  '10 concurrent approvals of CREATED payments against a balance for 4: exactly 4 confirmed, 6 stay CREATED',
  async () => {
    const c = await dayCompany();
    await fund(server, c.accountId, 4_000);
    for (let i = 0; i < 10; i++) assert.is((await pay(server, c, keyPayment(`wait-${i}`, 1_000, false))).status, 200);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => approve(server, c, `wait-${i}`)));
    assert.equal(tally(answers), { '200 CONFIRMED': 4, [`400 ${INSUFFICIENT}`]: 6 });
    const statuses = (await server.client.get('/api/v1/payment?limit=100', { auth: c.appID })).body.payments
      .map((p: any) => p.payment.status)
      .sort();
    assert.equal(statuses, [...Array(6).fill('CREATED'), ...Array(4).fill('CONFIRMED')].sort());
    assert.is((await balanceOf(server, c)).total, 0);
  },
);

postgresOnly('the same approval sent 6 times at once executes once', async () => {
  const c = await dayCompany();
  await fund(server, c.accountId, 10_000);
  await pay(server, c, keyPayment('once', 1_000, false));
  const answers = await Promise.all(Array.from({ length: 6 }, () => approve(server, c, 'once')));
  assert.equal(tally(answers), {
    '200 CONFIRMED': 1,
    '409 Payment is not awaiting approval: its status is CONFIRMED': 5,
  });
  assert.is((await balanceOf(server, c)).total, 9_000);
});

postgresOnly('the same create sent 6 times at once makes one payment', async () => {
  const c = await dayCompany();
  await fund(server, c.accountId, 10_000);
  const answers = await Promise.all(Array.from({ length: 6 }, () => pay(server, c, keyPayment('same', 1_000))));
  assert.ok(
    answers.every((r) => r.status === 200),
    JSON.stringify(tally(answers)),
  );
  assert.is(new Set(answers.map((r) => r.body.payment.id)).size, 1);
  assert.is((await balanceOf(server, c)).total, 9_000);
});

postgresOnly(
  '10 concurrent withdrawals (and payments) against a balance for 3 withdrawals: exactly what is covered',
  async () => {
    const c = await dayCompany();
    await fund(server, c.accountId, 3 * 60_000 + 500);
    const withdrawals = Array.from({ length: 10 }, () =>
      server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value: 60_000 }, { auth: c.appID }),
    );
    const answers = await Promise.all(withdrawals);
    assert.equal(tally(answers), { '200 OK': 3, [`400 ${INSUFFICIENT}`]: 7 });
    assert.is((await balanceOf(server, c)).total, 500);
    const mixed = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => pay(server, c, keyPayment(`mixed-${i}`, 200))),
      ...Array.from({ length: 4 }, () =>
        server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value: 100 }, { auth: c.appID }),
      ),
    ]);
    const spent = 500 - (await balanceOf(server, c)).total;
    const done = mixed.filter((r) => r.status === 200);
    const expected = done.reduce(
      (sum, r) => sum + (r.body.payment ? 200 : 100 + (r.body.withdraw.transaction.fee ?? 0)),
      0,
    );
    assert.is(spent, expected);
    assert.ok((await balanceOf(server, c)).total >= 0);
    assert.ok(
      mixed.every((r) => r.status === 200 || r.body.error === INSUFFICIENT),
      JSON.stringify(tally(mixed)),
    );
  },
);

postgresOnly('a daily limit that covers 3 of 8 concurrent payments: exactly 3', async () => {
  const c = await dayCompany();
  await fund(server, c.accountId, 100_000);
  await server.database.db
    .insertInto('account_limits')
    .values({
      account_id: c.accountId,
      daytime_per_transaction: 10_000,
      daytime_daily: 3_000,
      nighttime_per_transaction: 10_000,
      nighttime_daily: 3_000,
      monthly: 1_000_000,
      min_free_withdraw_value: 0,
      withdraw_fee: 0,
      updated_at: new Date(),
    })
    .execute();
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => pay(server, c, keyPayment(`limit-${i}`, 1_000))),
  );
  const ok = answers.filter((r) => r.status === 200);
  assert.is(ok.length, 3, JSON.stringify(tally(answers)));
  assert.ok(
    answers.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.body.error.includes('daily limit')),
  );
  assert.is((await balanceOf(server, c)).total, 97_000);
});

postgresOnly(
  'A and B paying each other at once (locks in opposite orders) all settle; money is conserved',
  async () => {
    const a = await dayCompany();
    const b = await dayCompany();
    await fund(server, a.accountId, 100_000);
    await fund(server, b.accountId, 100_000);
    const keyOf = async (x: TestCompany) =>
      (await server.client.get('/api/v1/pix-keys', { auth: x.appID })).body.pixKeys[0].key;
    const [aKey, bKey] = [await keyOf(a), await keyOf(b)];
    const toKey = (key: string, correlationID: string, value: number) => ({
      type: 'PIX_KEY',
      value,
      destinationAlias: key,
      destinationAliasType: 'RANDOM',
      correlationID,
      autoApprove: true,
    });
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => pay(server, a, toKey(bKey, `ab-${i}`, 1_000 + i))),
      ...Array.from({ length: 8 }, (_, i) => pay(server, b, toKey(aKey, `ba-${i}`, 2_000 + i))),
    ]);
    assert.equal(tally(answers), { '200 CONFIRMED': 16 });
    const ab = Array.from({ length: 8 }, (_, i) => 1_000 + i).reduce((x, y) => x + y, 0);
    const ba = Array.from({ length: 8 }, (_, i) => 2_000 + i).reduce((x, y) => x + y, 0);
    assert.is((await balanceOf(server, a)).total, 100_000 - ab + ba);
    assert.is((await balanceOf(server, b)).total, 100_000 - ba + ab);
  },
);

postgresOnly('a bucket with 5 tokens and 9 concurrent lookups: exactly 5 answered, 4 refused with 429', async () => {
  const c = await dayCompany();
  await server.client.get(`/api/v1/pix-keys/${OUTSIDE_KEY}/check`, { auth: c.appID });
  await server.database.db
    .updateTable('pix_key_buckets')
    .set({ tokens: 5 })
    .where('company_id', '=', c.companyId)
    .execute();
  const answers = await Promise.all(
    Array.from({ length: 9 }, () =>
      server.client.post('/api/v1/pix-keys/check', { pixKey: OUTSIDE_KEY }, { auth: c.appID }),
    ),
  );
  assert.equal(answers.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 429, 429, 429, 429]);
  assert.is((await server.client.get('/api/v1/pix-keys/tokens', { auth: c.appID })).body.tokens, 0);
  const removed = await server.database.db
    .selectFrom('pix_key_token_logs')
    .select('tokens_after')
    .where('company_id', '=', c.companyId)
    .where('operation', '=', 'REMOVE')
    .orderBy('id')
    .execute();
  assert.equal(removed.map((r) => r.tokens_after).slice(-5), [4, 3, 2, 1, 0]);
});

test.run();
