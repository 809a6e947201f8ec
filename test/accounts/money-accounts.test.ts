// Accounts beyond reads: duplicate, close (every rule of the seed), withdraw (fee below the
// free minimum), the e-mail filter, limits, and account registers.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertAccountRegister } from '../../src/accounts/account-registers.repository';
import { loadConfig } from '../../src/config';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, balanceOf, fund, OUTSIDE_KEY, pay } from '../payments/helpers';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let second: string;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Aurora Moda' });
  b = await createCompany(server.client);
  await advanceToLocalHour(server, 9, a, b);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const zero = { total: 0, blocked: 0, available: 0, blockedBySecurity: 0, blockedByWithdrawSafety: 0 };

test('POST /account duplicates the calling account: same holder, new number, no balance', async () => {
  const source = (await server.client.get(`/api/v1/account/${a.accountId}`, { auth: a.appID })).body.account;
  const res = await server.client.post('/api/v1/account', undefined, { auth: a.appID });
  assert.is(res.status, 200, res.text);
  const account = res.body.account;
  second = account.accountId;
  assert.is(account.isDefault, false);
  assert.equal(account.balance, zero);
  for (const field of ['taxId', 'officialName', 'tradeName', 'branch', 'accountName'])
    assert.is(account[field], source[field], field);
  assert.is.not(account.account, source.account);
  const list = (await server.client.get('/api/v1/account', { auth: a.appID })).body;
  assert.equal(
    list.accounts.map((x: { accountId: string }) => x.accountId),
    [a.accountId, second],
  );
});

test('POST /account needs the bank account feature (400) and a MASTER application (403)', async () => {
  const plain = await createCompany(server.client, { features: [] });
  assert.equal((await server.client.post('/api/v1/account', undefined, { auth: plain.appID })).body, {
    error: 'Bank account feature is not enabled',
  });
  const api = await server.client.post(
    '/api/v1/application',
    { accountId: a.accountId, application: { name: 'api', type: 'API' } },
    { auth: a.appID },
  );
  const res = await server.client.post('/api/v1/account', undefined, { auth: api.body.application.appID });
  assert.is(res.status, 403);
  assert.equal(res.body, { error: 'Wrong API type' });
});

test("POST /account {holderEmail} sets the new account's holder e-mail; GET /account?email= keeps the accounts whose holder has it (without case)", async () => {
  const none0 = (await server.client.get('/api/v1/account?email=financeiro@aurora.com.br', { auth: a.appID })).body;
  assert.is(none0.pageInfo.totalCount, 0, 'accounts without an e-mail never match');
  const created = await server.client.post(
    '/api/v1/account',
    { holderEmail: 'Financeiro@Aurora.com.br' },
    { auth: a.appID },
  );
  assert.is(created.status, 200, created.text);
  const withEmail = created.body.account.accountId as string;
  const found = (await server.client.get('/api/v1/account?email=financeiro@aurora.com.br', { auth: a.appID })).body;
  assert.equal(
    found.accounts.map((x: { accountId: string }) => x.accountId),
    [withEmail],
  );
  assert.is(found.pageInfo.totalCount, 1);
  const none = (await server.client.get('/api/v1/account?email=ninguem@aurora.com.br', { auth: a.appID })).body;
  assert.equal(none.accounts, []);
  assert.is(none.pageInfo.totalCount, 0);
  assert.is(
    (await server.client.get('/api/v1/account?email=financeiro@aurora.com.br', { auth: b.appID })).body.pageInfo
      .totalCount,
    0,
  );
  assert.is((await server.client.get('/api/v1/account?email=not-an-email', { auth: a.appID })).status, 400);
  const bad = await server.client.post('/api/v1/account', { holderEmail: 'not-an-email' }, { auth: a.appID });
  assert.is(bad.status, 400, bad.text);
  assert.is(bad.body.details?.[0]?.field, 'body.holderEmail', bad.text);
  assert.is(
    (await server.client.post('/api/v1/account', { email: 'x@y.com' }, { auth: a.appID })).status,
    400,
    'unknown fields are refused',
  );
  // A duplicate made without holderEmail keeps the calling account's e-mail.
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: withEmail, application: { name: 'with-email', type: 'MASTER' } },
    { auth: a.appID },
  );
  const third = (await server.client.post('/api/v1/account', undefined, { auth: app.body.application.appID })).body
    .account.accountId;
  assert.is(
    (await server.client.get('/api/v1/account?email=FINANCEIRO@aurora.com.br', { auth: a.appID })).body.pageInfo
      .totalCount,
    2,
  );
  for (const id of [third, withEmail])
    assert.is((await server.client.delete(`/api/v1/account/${id}`, { auth: a.appID })).status, 200);
  assert.is(
    (await server.client.get('/api/v1/account?email=financeiro@aurora.com.br', { auth: a.appID })).body.pageInfo
      .totalCount,
    0,
    'closed accounts are not listed',
  );
});

test('DELETE /account/{id}: every rule and message', async () => {
  const plain = await createCompany(server.client, { features: [] });
  const forbidden = await server.client.delete(`/api/v1/account/${plain.accountId}`, { auth: plain.appID });
  assert.is(forbidden.status, 403);
  assert.equal(forbidden.body, { error: 'This feature is not enabled for your company' });
  assert.equal((await server.client.delete('/api/v1/account/not-an-id', { auth: a.appID })).body, {
    error: 'Account ID is invalid',
  });
  const missing = await server.client.delete(`/api/v1/account/${randomUUID()}`, { auth: a.appID });
  assert.is(missing.status, 404);
  assert.equal(missing.body, { error: 'Account not found' });
  assert.equal((await server.client.delete(`/api/v1/account/${second}`, { auth: b.appID })).body, {
    error: 'Account not found',
  });
  assert.equal((await server.client.delete(`/api/v1/account/${a.accountId}`, { auth: a.appID })).body, {
    error: 'The default account cannot be deleted',
  });
  await fund(server, second, 1);
  assert.equal((await server.client.delete(`/api/v1/account/${second}`, { auth: a.appID })).body, {
    error: 'Account with balance cannot be deleted',
  });
  const out = await server.client.post(`/api/v1/account/${second}/withdraw`, { value: 1 }, { auth: a.appID });
  assert.is(out.status, 400, 'a withdrawal of 1 cent would need its fee too');
  await fund(server, second, 100);
  assert.is(
    (await server.client.post(`/api/v1/account/${second}/withdraw`, { value: 1 }, { auth: a.appID })).status,
    200,
  );
  assert.equal(await balanceOf(server, a, second), zero);
  const closed = await server.client.delete(`/api/v1/account/${second}`, { auth: a.appID });
  assert.is(closed.status, 200, closed.text);
  assert.equal(closed.body, { status: 'OK', accountId: second });
  assert.equal((await server.client.delete(`/api/v1/account/${second}`, { auth: a.appID })).body, {
    error: 'Account already closed',
  });
  assert.ok(
    !(await server.client.get('/api/v1/account', { auth: a.appID })).body.accounts.some(
      (x: { accountId: string }) => x.accountId === second,
    ),
  );
  assert.equal(
    (await server.client.post(`/api/v1/account/${second}/withdraw`, { value: 100 }, { auth: a.appID })).body,
    { error: 'Account already closed' },
  );
});

test('closing an account takes its Pix keys out of the DICT', async () => {
  const extra = (await server.client.post('/api/v1/account', undefined, { auth: b.appID })).body.account.accountId;
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: extra, application: { name: 'x', type: 'MASTER' } },
    { auth: b.appID },
  );
  const key = (
    await server.client.post('/api/v1/pix-keys', { key: 'e', type: 'EVP' }, { auth: app.body.application.appID })
  ).body.key;
  assert.is(
    (await server.client.get(`/api/v1/pix-keys/${key}/check`, { auth: a.appID })).body.owner.account.length > 0,
    true,
  );
  assert.is((await server.client.delete(`/api/v1/account/${extra}`, { auth: b.appID })).status, 200);
  const after = await server.client.get(`/api/v1/pix-keys/${key}/check`, { auth: a.appID });
  assert.is(after.body.owner.psp === 'pixgate sandbox PSP', false, 'no longer a key of this server');
});

test('withdraw: from the free minimum on no fee; below it a fee; WITHDRAW and FEE transactions share the end-to-end id', async () => {
  await fund(server, a.accountId, 150_000);
  const big = await server.client.post(`/api/v1/account/${a.accountId}/withdraw`, { value: 50_000 }, { auth: a.appID });
  assert.is(big.status, 200, big.text);
  assert.equal(Object.keys(big.body.withdraw.transaction).sort(), ['endToEndId', 'transaction']);
  assert.is(big.body.withdraw.transaction.transaction, 50_000);
  assert.equal(big.body.withdraw.account.balance, { ...zero, total: 100_000, available: 100_000 });
  const small = await server.client.post(
    `/api/v1/account/${a.accountId}/withdraw`,
    { value: 49_999 },
    { auth: a.appID },
  );
  assert.is(small.body.withdraw.transaction.fee, 100);
  assert.equal(small.body.withdraw.account.balance, {
    ...zero,
    total: 100_000 - 49_999 - 100,
    available: 100_000 - 49_999 - 100,
  });
  const e2e = small.body.withdraw.transaction.endToEndId;
  assert.ok(/^E99999999\d{12}[A-Za-z0-9]{11}$/.test(e2e));
  const txs = (await server.client.get('/api/v1/transaction', { auth: a.appID })).body.transactions.filter(
    (t: { endToEndId: string }) => t.endToEndId === e2e,
  );
  assert.equal(txs.map((t: { type: string; value: number }) => [t.type, t.value]).sort(), [
    ['FEE', 100],
    ['WITHDRAW', 49_999],
  ]);
  const withdraw = txs.find((t: { type: string }) => t.type === 'WITHDRAW');
  assert.equal(withdraw.withdraw, { value: 49_999, time: withdraw.time, endToEndId: e2e });
  assert.is(
    withdraw.creditParty.holder.taxID.taxID,
    (await server.client.get('/api/v1/company', { auth: a.appID })).body.company.taxID,
    "to the holder's own account",
  );
});

test("withdraw refusals: not enough for value and fee, unknown or another company's account, bad value", async () => {
  const before = await balanceOf(server, a);
  assert.ok(before.available < 50_000, 'below the free minimum, so a fee applies');
  const refused = await server.client.post(
    `/api/v1/account/${a.accountId}/withdraw`,
    { value: before.available },
    { auth: a.appID },
  );
  assert.equal(refused.body, { error: 'Account does not have enough balance to complete the operation' });
  assert.equal(await balanceOf(server, a), before);
  assert.is(
    (await server.client.post(`/api/v1/account/${randomUUID()}/withdraw`, { value: 1 }, { auth: a.appID })).status,
    404,
  );
  assert.equal(
    (await server.client.post(`/api/v1/account/${a.accountId}/withdraw`, { value: 1 }, { auth: b.appID })).body,
    { error: 'Account not found' },
  );
  assert.is(
    (await server.client.post(`/api/v1/account/${a.accountId}/withdraw`, { value: 0 }, { auth: a.appID })).status,
    400,
  );
  assert.is(
    (await server.client.post(`/api/v1/account/${a.accountId}/withdraw`, { value: 1.5 }, { auth: a.appID })).status,
    400,
  );
});

test("the fee and the free minimum are configurable: environment defaults, an account's own row", async () => {
  assert.equal(loadConfig({}).withdrawals, { fee: 100, minFreeValue: 50_000 });
  assert.equal(loadConfig({ PIXGATE_WITHDRAW_FEE: '250', PIXGATE_WITHDRAW_FREE_FROM: '0' }).withdrawals, {
    fee: 250,
    minFreeValue: 0,
  });
  assert.throws(() => loadConfig({ PIXGATE_WITHDRAW_FEE: '-1' }), /PIXGATE_WITHDRAW_FEE/);
  const c = await createCompany(server.client);
  await fund(server, c.accountId, 10_000);
  const limits = (await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: c.appID })).body.limits;
  const at = new Date();
  await server.database.db
    .insertInto('account_limits')
    .values({
      account_id: c.accountId,
      daytime_per_transaction: limits.daytime.perTransaction,
      daytime_daily: limits.daytime.daily,
      nighttime_per_transaction: limits.nighttime.perTransaction,
      nighttime_daily: limits.nighttime.daily,
      monthly: limits.monthly,
      min_free_withdraw_value: 1_000,
      withdraw_fee: 7,
      updated_at: at,
    })
    .execute();
  assert.is(
    (await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: c.appID })).body.limits.minFreeWithdrawValue,
    1_000,
  );
  assert.is(
    (await server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value: 999 }, { auth: c.appID })).body
      .withdraw.transaction.fee,
    7,
  );
  assert.is(
    (await server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value: 1_000 }, { auth: c.appID })).body
      .withdraw.transaction.fee,
    undefined,
  );
  assert.is((await balanceOf(server, c)).total, 10_000 - 999 - 7 - 1_000);
});

test("GET /limits: defaults, usage by period, another company's account is 404", async () => {
  const c = await createCompany(server.client);
  await advanceToLocalHour(server, 9, c);
  const fresh = (await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: c.appID })).body.limits;
  assert.equal(
    { ...fresh, updatedAt: undefined },
    {
      accountId: c.accountId,
      daytime: { perTransaction: 10_000_000, daily: 50_000_000, usedToday: 0 },
      nighttime: { perTransaction: 1_000_000, daily: 5_000_000, usedToday: 0 },
      nighttimeStart: '20:00',
      nighttimeEnd: '06:00',
      monthly: 300_000_000,
      minFreeWithdrawValue: 50_000,
      updatedAt: undefined,
    },
  );
  await fund(server, c.accountId, 200_000);
  assert.is(
    (
      await pay(server, c, {
        type: 'PIX_KEY',
        value: 30_000,
        destinationAlias: OUTSIDE_KEY,
        destinationAliasType: 'EMAIL',
        correlationID: 'lim-1',
        autoApprove: true,
      })
    ).status,
    200,
  );
  await server.client.post(`/api/v1/account/${c.accountId}/withdraw`, { value: 60_000 }, { auth: c.appID });
  const used = (await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: c.appID })).body.limits;
  assert.equal([used.daytime.usedToday, used.nighttime.usedToday], [90_000, 0]);
  assert.equal((await server.client.get(`/api/v1/limits/${c.accountId}`, { auth: a.appID })).body, {
    error: 'Account not found',
  });
});

test("account registers: read by correlationID, delete only while PENDING, the seed's messages", async () => {
  const at = new Date();
  const register = (correlation_id: string, status: string, company_id = a.companyId) =>
    insertAccountRegister(server.database.db, {
      id: randomUUID(),
      company_id,
      correlation_id,
      type: 'BAAS',
      official_name: 'Aurora Moda Comercio de Roupas Ltda',
      trade_name: 'Aurora Moda',
      tax_id: '11222333000181',
      tax_id_type: 'BR_CNPJ',
      status,
      created_at: at,
      updated_at: at,
    });
  await register('reg-pending', 'PENDING');
  await register('reg-approved', 'APPROVED');
  const res = await server.client.get('/api/v1/account-register?correlationID=reg-pending', { auth: a.appID });
  assert.equal(res.body, {
    officialName: 'Aurora Moda Comercio de Roupas Ltda',
    tradeName: 'Aurora Moda',
    type: 'BAAS',
    taxID: { taxID: '11222333000181', type: 'BR_CNPJ' },
    status: 'PENDING',
    correlationID: 'reg-pending',
  });
  assert.equal(
    (await server.client.get('/api/v1/account-register?correlationID=reg-pending', { auth: b.appID })).body,
    { error: 'Account register not found' },
  );
  const blank = await server.client.get('/api/v1/account-register?correlationID=%20%20', { auth: a.appID });
  assert.is(blank.status, 400);
  assert.equal(blank.body, {
    error: [
      {
        code: 'too_small',
        minimum: 1,
        type: 'string',
        inclusive: true,
        exact: false,
        message: 'Account register correlationID is required',
        path: ['correlationID'],
      },
    ],
  });
  assert.is((await server.client.get('/api/v1/account-register', { auth: a.appID })).status, 400);
  // By path: correlationID first, then the newest live register of a CNPJ (masked or not).
  assert.equal((await server.client.get('/api/v1/account-register/reg-pending', { auth: a.appID })).body, res.body);
  assert.is(
    (await server.client.get('/api/v1/account-register/11.222.333%2F0001-81', { auth: a.appID })).body.taxID.taxID,
    '11222333000181',
  );
  assert.equal((await server.client.get('/api/v1/account-register/11222333000181', { auth: b.appID })).body, {
    error: 'Account register not found',
  });
  const blankPath = await server.client.get('/api/v1/account-register/%20', { auth: a.appID });
  assert.equal(
    [blankPath.status, blankPath.body],
    [
      400,
      {
        error: [
          {
            code: 'too_small',
            minimum: 1,
            type: 'string',
            inclusive: true,
            exact: false,
            message: 'Tax ID is required',
            path: ['taxID'],
          },
        ],
      },
    ],
  );
  assert.equal((await server.client.delete('/api/v1/account-register/%20', { auth: a.appID })).body, {
    error: 'Account register ID is required',
  });
  assert.equal((await server.client.delete('/api/v1/account-register/reg-approved', { auth: a.appID })).body, {
    error: 'Only account registers in PENDING status can be deleted',
  });
  assert.equal((await server.client.delete('/api/v1/account-register/reg-pending', { auth: b.appID })).body, {
    error: 'Account register not found',
  });
  const deleted = await server.client.delete('/api/v1/account-register/reg-pending', { auth: a.appID });
  assert.equal(deleted.body, { message: 'Account register successfully deleted', accountRegisterId: 'reg-pending' });
  assert.is((await server.client.delete('/api/v1/account-register/reg-pending', { auth: a.appID })).status, 404);
  assert.is(
    (await server.client.get('/api/v1/account-register?correlationID=reg-pending', { auth: a.appID })).status,
    404,
  );
  // The correlationID can be registered again once deleted.
  await register('reg-pending', 'PENDING');
  assert.is(
    (await server.client.get('/api/v1/account-register?correlationID=reg-pending', { auth: a.appID })).status,
    200,
  );
});

test("GET /company answers the caller's company", async () => {
  const res = await server.client.get('/api/v1/company', { auth: a.appID });
  assert.is(res.body.company.name, 'Aurora Moda');
});

test.run();
