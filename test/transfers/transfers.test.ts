// POST /transfer between accounts of one company (once per correlationID) and GET /statement
// (ledger movements of the caller's account with the running balance, by period, paged).
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const subKey = randomUUID();
const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Transferidora' });
  b = await createCompany(server.client);
  await server.client.post('/api/v1/subaccount', { pixKey: subKey, name: 'Caixa' }, { auth: a.appID });
  await server.client.post('/api/v1/sandbox/pix-in', { pixKey: a.pixKey, value: 5000, payer });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const transfer = (body: Record<string, unknown>, auth = a.appID) =>
  server.client.post('/api/v1/transfer', body, { auth });
const subBalance = async () =>
  (await server.client.get(`/api/v1/subaccount/${subKey}`, { auth: a.appID })).body.SubAccount.balance;

test('a transfer moves once per correlationID; another body under it is refused', async () => {
  const body = { value: 1200, fromPixKey: a.pixKey, toPixKey: subKey, correlationID: 'tr-1' };
  const first = await transfer(body);
  assert.is(first.status, 200, first.text);
  assert.equal([first.body.transaction.value, first.body.transaction.correlationID], [1200, 'tr-1']);
  const again = await transfer(body);
  assert.equal(again.body, first.body);
  assert.is(await subBalance(), 1200);
  const other = await transfer({ ...body, value: 1300 });
  assert.equal(other.body, { error: 'A transfer with this correlationID already exists with a different body' });
});

test('a transfer needs two different keys of the company and the money', async () => {
  const foreign = await transfer({ value: 1, fromPixKey: a.pixKey, toPixKey: b.pixKey });
  assert.equal([foreign.status, foreign.body.error], [400, 'toPixKey is not a Pix key of your company']);
  const theirs = await transfer({ value: 1, fromPixKey: b.pixKey, toPixKey: subKey });
  assert.equal([theirs.status, theirs.body.error], [400, 'fromPixKey is not a Pix key of your company']);
  const same = await transfer({ value: 1, fromPixKey: subKey, toPixKey: subKey.toUpperCase() });
  assert.is(same.status, 400);
  const tooMuch = await transfer({ value: 1201, fromPixKey: subKey, toPixKey: a.pixKey });
  assert.equal(tooMuch.body, { error: 'Account does not have enough balance to complete the operation' });
  const bad = await transfer({ value: 0, fromPixKey: subKey, toPixKey: a.pixKey });
  assert.is(bad.status, 400);
});

test('the statement lists the movements with the running balance, by period and page', async () => {
  await transfer({ value: 200, fromPixKey: subKey, toPixKey: a.pixKey, correlationID: 'tr-2' });
  const res = await server.client.get('/api/v1/statement', { auth: a.appID });
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.map((l: { type: string; value: number; balance: number }) => [l.type, l.value, l.balance]),
    [
      ['CREDIT', 5000, 5000],
      ['DEBIT', 1200, 3800],
      ['CREDIT', 200, 4000],
    ],
  );
  assert.ok(res.body[1].transactionId);
  const page = await server.client.get('/api/v1/statement?skip=1&limit=1', { auth: a.appID });
  assert.equal(
    page.body.map((l: { balance: number }) => l.balance),
    [3800],
  );
  const future = new Date(Date.now() + 86_400_000).toISOString();
  const none = await server.client.get(`/api/v1/statement?start=${encodeURIComponent(future)}`, { auth: a.appID });
  assert.equal(none.body, []);
  const backwards = await server.client.get(
    `/api/v1/statement?start=${encodeURIComponent(future)}&end=2020-01-01T00:00:00Z`,
    { auth: a.appID },
  );
  assert.is(backwards.status, 400);
  // Another company sees only its own account.
  assert.equal((await server.client.get('/api/v1/statement', { auth: b.appID })).body, []);
});

test.run();
