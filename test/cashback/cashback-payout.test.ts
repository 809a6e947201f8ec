// A cashback that becomes due is paid back to the customer through the Pix rail, once: the
// company debited (REFUND_OUT, statement line, refund events), the payer credited (outside, or
// its account here with a REFUND_IN and PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED). Capped at
// what is refundable of the Pix; waits (PENDING) while the company cannot cover it; due only
// by a Pix settled at or after its creation on the company's (sandbox) clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { auditMoneyOut } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';

let server: TestServer;
let shop: TestCompany;
let sent = 0;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  shop = await createCompany(server.client, { name: 'Loja Aurora' });
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const create = (company: TestCompany, taxID: string, value: number) =>
  server.client.post('/api/v1/cashback-fidelity', { taxID, value }, { auth: company.appID });
const cashbackBalance = async (company: TestCompany, taxID: string) =>
  (await server.client.get(`/api/v1/cashback-fidelity/balance/${taxID}`, { auth: company.appID })).body;
const runJobs = async () => {
  await server.services.jobs.runNow('cashback.payouts');
  await server.services.jobs.runNow('pixin.devolutions');
};

async function pixFrom(taxID: string, value: number, to = shop): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: to.pixKey,
    value,
    payer: { name: 'Mariana Alves Costa', taxID },
  });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

async function accountBalance(company: TestCompany) {
  const res = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  const { total, available } = res.body.account.balance;
  return { total, available };
}

async function refundsOut(company: TestCompany) {
  const res = await server.client.get('/api/v1/transaction?type=REFUND', { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body.transactions as Array<{ value: number; endToEndId: string; globalID: string }>;
}

async function cashbackRow(taxId: string) {
  return server.database.db
    .selectFrom('cashbacks')
    .select(['status', 'paid_value', 'return_id'])
    .where('company_id', '=', shop.companyId)
    .where('tax_id', '=', taxId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

test('due on the next Pix from the customer: paid back through the rail once, seen in transactions, statement and events', async () => {
  const cpf = '52998224725';
  assert.is((await create(shop, cpf, 1_250)).status, 201);
  await pixFrom(cpf, 9_990);
  const before = await accountBalance(shop);
  await runJobs();
  const row = await cashbackRow(cpf);
  assert.equal([row.status, row.paid_value], ['USED', 1_250]);
  assert.equal(await accountBalance(shop), { total: before.total - 1_250, available: before.available - 1_250 });
  const out = (await refundsOut(shop)).filter((t) => t.endToEndId === row.return_id);
  assert.equal(
    out.map((t) => t.value),
    [1_250],
  );
  const statement = await server.client.get('/api/v1/statement', { auth: shop.appID });
  const line = statement.body.find((l: { transactionId?: string }) => l.transactionId === out[0]!.globalID);
  assert.equal([line?.type, line?.value], ['DEBIT', 1_250]);
  const events = (
    await listEventsOfCompany(server.database.db, shop.companyId, 'PIX_TRANSACTION_REFUND_SENT_CONFIRMED')
  )
    .map((e) => (e.payload as { refund: { endToEndId: string; comment?: string; value: number } }).refund)
    .filter((r) => r.endToEndId === row.return_id);
  assert.equal(
    events.map((r) => [r.comment, r.value]),
    [['Cashback', 1_250]],
  );
  // Once: running the jobs and reading again moves nothing more.
  await runJobs();
  assert.equal(await cashbackBalance(shop, cpf), { balance: 0, status: 'USED' });
  assert.equal(await accountBalance(shop), { total: before.total - 1_250, available: before.available - 1_250 });
  assert.is((await refundsOut(shop)).filter((t) => t.value === 1_250).length, 1);
});

test('a customer on this server gets a REFUND_IN and PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED', async () => {
  const cnpj = '11222333000181';
  const customer = await createCompany(server.client, { name: 'Cliente Boreal', taxID: cnpj });
  await pixFrom('26801573110', 10_000, customer);
  assert.is((await create(shop, cnpj, 400)).status, 201);
  const paid = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 3_000,
      destinationAlias: shop.pixKey,
      destinationAliasType: 'RANDOM',
      correlationID: `cashback-${++sent}`,
      autoApprove: true,
    },
    { auth: customer.appID },
  );
  assert.is(paid.status, 200, paid.text);
  // Reading the customer's cashback pays it too (the rail settles it afterwards).
  assert.equal(await cashbackBalance(shop, cnpj), { balance: 0, status: 'USED' });
  await runJobs();
  assert.equal(await accountBalance(customer), { total: 7_400, available: 7_400 });
  const row = await cashbackRow(cnpj);
  const reversal = await server.client.get('/api/v1/transaction?type=REVERSAL', { auth: customer.appID });
  assert.equal(
    reversal.body.transactions
      .filter((t: { endToEndId: string }) => t.endToEndId === row.return_id)
      .map((t: { value: number }) => t.value),
    [400],
  );
  const heard = await listEventsOfCompany(
    server.database.db,
    customer.companyId,
    'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED',
  );
  assert.equal(
    heard
      .map((e) => (e.payload as { refund: { endToEndId: string; value: number } }).refund)
      .map((r) => [r.endToEndId, r.value]),
    [[row.return_id, 400]],
  );
});

test('larger than the Pix: paid up to what is refundable of it', async () => {
  const cpf = '39053344705';
  assert.is((await create(shop, cpf, 5_000)).status, 201);
  await pixFrom(cpf, 3_000);
  await runJobs();
  assert.equal(await cashbackRow(cpf).then((r) => [r.status, r.paid_value]), ['USED', 3_000]);
});

test('the company cannot cover it: stays PENDING (due) without going below zero, paid when money arrives', async () => {
  const poor = await createCompany(server.client, { name: 'Loja Dunas' });
  const cpf = '86288366757';
  assert.is((await create(poor, cpf, 2_000)).status, 201);
  await pixFrom(cpf, 2_000, poor);
  // The company spends the Pix before the payout runs.
  const spent = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 2_000,
      destinationAlias: 'fornecedor@tecidosbrasil.com.br',
      destinationAliasType: 'EMAIL',
      correlationID: `cashback-${++sent}`,
      autoApprove: true,
    },
    { auth: poor.appID },
  );
  assert.equal([spent.status, spent.body.payment?.status], [200, 'CONFIRMED']);
  await runJobs();
  assert.equal(await cashbackBalance(poor, cpf), { balance: 2_000, status: 'PENDING' });
  assert.equal(await accountBalance(poor), { total: 0, available: 0 });
  await pixFrom('26801573110', 5_000, poor);
  await runJobs();
  assert.equal(await cashbackBalance(poor, cpf), { balance: 0, status: 'USED' });
  assert.equal(await accountBalance(poor), { total: 3_000, available: 3_000 });
});

test('sandbox clock: a Pix settled before the cashback does not make it due, nor does moving the clock', async () => {
  const cpf = '71428793860';
  await pixFrom(cpf, 1_000);
  const moved = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 86_400 }, { auth: shop.appID });
  assert.is(moved.status, 200, moved.text);
  assert.is((await create(shop, cpf, 300)).status, 201);
  await runJobs();
  assert.equal(await cashbackBalance(shop, cpf), { balance: 300, status: 'PENDING' });
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 30 * 86_400 }, { auth: shop.appID });
  await runJobs();
  assert.equal(await cashbackBalance(shop, cpf), { balance: 300, status: 'PENDING' });
  // A Pix at the moved clock's time does.
  await pixFrom(cpf, 1_000);
  await runJobs();
  assert.equal(await cashbackRow(cpf).then((r) => [r.status, r.paid_value]), ['USED', 300]);
});

postgresOnly('payouts and reads racing for one due cashback pay it once', async () => {
  const cpf = '29537914852';
  assert.is((await create(shop, cpf, 777)).status, 201);
  await pixFrom(cpf, 5_000);
  const before = await accountBalance(shop);
  await Promise.all([
    server.services.cashback.payDue(),
    server.services.cashback.payDue(),
    cashbackBalance(shop, cpf),
    cashbackBalance(shop, cpf),
    server.services.cashback.payDue(),
  ]);
  await runJobs();
  const paid = await server.database.db
    .selectFrom('pix_devolutions')
    .select('value')
    .where('company_id', '=', shop.companyId)
    .where('value', '=', 777)
    .execute();
  assert.is(paid.length, 1);
  assert.equal(await accountBalance(shop), { total: before.total - 777, available: before.available - 777 });
});

test.run();
