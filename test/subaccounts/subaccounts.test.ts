// Subaccounts as ledger accounts: open by key, receive Pix and charges, move money to and from
// the company account and between themselves, statements with running balance, delete at zero.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };
const keyA = randomUUID();
const keyB = `loja-${randomUUID().slice(0, 8)}@example.com`;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Rede Aurora' });
  b = await createCompany(server.client);
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const get = (path: string, auth = a.appID) => server.client.get(path, { auth });
const post = (path: string, body?: unknown, auth = a.appID) => server.client.post(path, body, { auth });
const balanceOf = async (key: string) => (await get(`/api/v1/subaccount/${encodeURIComponent(key)}`)).body.SubAccount;
const accountTotal = async () => (await get(`/api/v1/account/${a.accountId}`)).body.account.balance.total;

test('POST /subaccount opens one per key and answers the same one again', async () => {
  const created = await post('/api/v1/subaccount', { pixKey: keyA, name: 'Loja Centro' });
  assert.is(created.status, 200, created.text);
  assert.equal(created.body.SubAccount, { name: 'Loja Centro', pixKey: keyA, balance: 0, withdrawBlocked: false });
  const again = await post('/api/v1/subaccount', { pixKey: keyA.toUpperCase(), name: 'Outro nome' });
  assert.equal(again.body.SubAccount.name, 'Loja Centro');
  assert.is((await post('/api/v1/subaccount', { pixKey: keyB.toUpperCase(), name: 'Loja Norte' })).status, 200);
  const list = await get('/api/v1/subaccount?limit=1');
  assert.equal(
    list.body.subAccounts.map((s: { pixKey: string }) => s.pixKey),
    [keyA],
  );
  assert.is(list.body.pageInfo.totalCount, 2);
  assert.is(list.body.pageInfo.hasNextPage, true);
  // Subaccounts are not bank accounts of the company.
  assert.is((await get('/api/v1/account')).body.accounts.length, 1);
});

test('POST /subaccount refuses a bad key, a key in use and a company without the feature', async () => {
  const bad = await post('/api/v1/subaccount', { pixKey: 'not a key', name: 'x' });
  assert.equal([bad.status, bad.body.error], [400, 'pixKey is not a valid Pix key']);
  const taken = await post('/api/v1/subaccount', { pixKey: a.pixKey, name: 'x' });
  assert.equal([taken.status, taken.body.error], [400, 'This Pix key is already registered']);
  const theirs = await post('/api/v1/subaccount', { pixKey: keyA, name: 'x' }, b.appID);
  assert.equal([theirs.status, theirs.body.error], [400, 'This Pix key is already registered']);
  const plain = await createCompany(server.client, { features: [] });
  const refused = await post('/api/v1/subaccount', { pixKey: randomUUID(), name: 'x' }, plain.appID);
  assert.equal([refused.status, refused.body.error], [403, 'This feature is not enabled for your company']);
});

test('the key of a subaccount is not deleted through /pix-keys', async () => {
  const res = await server.client.request('DELETE', `/api/v1/pix-keys/${keyA}`, { auth: a.appID });
  assert.equal([res.status, res.body.error], [400, 'The Pix key of a subaccount is removed with the subaccount']);
});

test("another company's subaccount is answered like a missing one", async () => {
  for (const path of [`/api/v1/subaccount/${keyA}`, `/api/v1/subaccount/${keyA}/statement`]) {
    const res = await get(path, b.appID);
    assert.equal([res.status, res.body.error], [404, 'Subaccount not found'], path);
  }
  const debit = await post(`/api/v1/subaccount/${keyA}/debit`, { value: 1 }, b.appID);
  assert.is(debit.status, 404);
});

test('the key of a subaccount receives Pix, and a charge with subaccount credits it', async () => {
  const pix = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: keyA, value: 1000, payer });
  assert.is(pix.status, 200, pix.text);
  const charge = await post('/api/v1/charge', { correlationID: `sub-${randomUUID()}`, value: 2500, subaccount: keyA });
  assert.is(charge.status, 200, charge.text);
  assert.is(charge.body.charge.subaccount, keyA);
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: charge.body.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  assert.is((await balanceOf(keyA)).balance, 3500);
  assert.is(await accountTotal(), 0);
});

test('credit and debit move money between the company account and the subaccount', async () => {
  await server.client.post('/api/v1/sandbox/pix-in', { pixKey: a.pixKey, value: 10_000, payer });
  const credit = await post(`/api/v1/subaccount/${keyA}/credit`, { value: 400, description: 'Aporte' });
  assert.equal(credit.body, {
    pixKey: keyA,
    value: 400,
    description: 'Aporte',
    success: 'Sub-account has been successfully credited, 400',
  });
  const debit = await post(`/api/v1/subaccount/${keyA}/debit`, { value: 900, correlationID: 'debito-1' });
  assert.is(debit.status, 200, debit.text);
  // The same correlationID moves once; with another value it is refused.
  assert.is((await post(`/api/v1/subaccount/${keyA}/debit`, { value: 900, correlationID: 'debito-1' })).status, 200);
  const reused = await post(`/api/v1/subaccount/${keyA}/debit`, { value: 901, correlationID: 'debito-1' });
  assert.is(reused.status, 400);
  assert.is((await balanceOf(keyA)).balance, 3000);
  assert.is(await accountTotal(), 10_500);
  const tooMuch = await post(`/api/v1/subaccount/${keyA}/debit`, { value: 3001 });
  assert.equal(tooMuch.body, { error: 'Account does not have enough balance to complete the operation' });
});

test('transfer between subaccounts moves once per correlationID', async () => {
  const body = { value: 650, fromPixKey: keyA, fromPixKeyType: 'RANDOM', toPixKey: keyB, toPixKeyType: 'EMAIL' };
  const res = await post('/api/v1/subaccount/transfer', { ...body, correlationID: 'tr-1' });
  assert.is(res.status, 200, res.text);
  assert.equal(
    [res.body.value, res.body.originSubaccount.balance, res.body.destinationSubaccount.balance],
    [650, 2350, 650],
  );
  await post('/api/v1/subaccount/transfer', { ...body, correlationID: 'tr-1' });
  assert.is((await balanceOf(keyB)).balance, 650);
  const same = await post('/api/v1/subaccount/transfer', { ...body, toPixKey: keyA });
  assert.is(same.status, 400);
  const missing = await post('/api/v1/subaccount/transfer', { ...body, toPixKey: randomUUID() });
  assert.is(missing.status, 404);
});

test('withdraw moves the available balance (or part of it) to the company account', async () => {
  const before = await accountTotal();
  const partial = await post(`/api/v1/subaccount/${keyA}/withdraw`, { value: 350 });
  assert.is(partial.status, 200, partial.text);
  assert.equal(
    [
      partial.body.withdraw.account.status,
      partial.body.withdraw.account.value,
      partial.body.withdraw.subAccount.balance,
    ],
    ['CONFIRMED', 350, 2000],
  );
  assert.is(partial.body.withdraw.account.destinationAlias, a.pixKey);
  const all = await post(`/api/v1/subaccount/${keyA}/withdraw`);
  assert.equal([all.body.withdraw.account.value, all.body.withdraw.subAccount.balance], [2000, 0]);
  assert.is(await accountTotal(), before + 2350);
  const empty = await post(`/api/v1/subaccount/${keyA}/withdraw`);
  assert.is(empty.status, 400);
});

test('the subaccount statement lists every movement with the running balance', async () => {
  const res = await get(`/api/v1/subaccount/${keyA}/statement`);
  assert.is(res.status, 200, res.text);
  const lines = res.body as Array<{ value: number; balance: number; type: string; operationType: string }>;
  assert.equal(
    lines.map((l) => [l.type, l.operationType, l.value, l.balance]),
    [
      ['CREDIT', 'CREDIT', 1000, 1000],
      ['CREDIT', 'CREDIT', 2500, 3500],
      ['CREDIT', 'CREDIT', 400, 3900],
      ['DEBIT', 'DEBIT', 900, 3000],
      ['DEBIT', 'TRANSFER_DEBIT', 650, 2350],
      ['DEBIT', 'WITHDRAWAL', 350, 2000],
      ['DEBIT', 'WITHDRAWAL', 2000, 0],
    ],
  );
  const page = await get(`/api/v1/subaccount/${keyA}/statement?skip=5&limit=1`);
  assert.equal(
    page.body.map((l: { balance: number }) => l.balance),
    [2000],
  );
});

test('the transactions show the moves as INTERNAL_TRANSFER', async () => {
  const res = await get('/api/v1/transaction?type=INTERNAL_TRANSFER&limit=100');
  assert.is(res.status, 200, res.text);
  assert.is(res.body.transactions.length, 5);
});

test('DELETE /subaccount/{id} only at zero balance; the key is free again', async () => {
  const full = await server.client.request('DELETE', `/api/v1/subaccount/${keyB}`, { auth: a.appID });
  assert.equal([full.status, full.body.error], [400, 'Only subaccount without balance can be removed']);
  const res = await server.client.request('DELETE', `/api/v1/subaccount/${keyA}`, { auth: a.appID });
  assert.equal(res.body, { status: 'OK', pixKey: keyA });
  assert.is((await get(`/api/v1/subaccount/${keyA}`)).status, 404);
  const pix = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: keyA, value: 100, payer });
  assert.is.not(pix.status, 200);
});

test.run();
