// Pix keys (list, create, set default, delete), DICT lookups (local owners, the outside
// world, unknown keys) and the per-company token bucket with its log.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OWN_PSP_NAME } from '../../src/lib/psp';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let aTaxId: string;
let aEvp: string;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Aurora Moda Comercio de Roupas Ltda' });
  b = await createCompany(server.client);
  aTaxId = (await server.client.get('/api/v1/company', { auth: a.appID })).body.company.taxID;
  aEvp = (await server.client.get('/api/v1/pix-keys', { auth: a.appID })).body.pixKeys[0].key;
});
test.after(async () => {
  await server.close();
});

const keys = async (company: TestCompany, query = '') =>
  (await server.client.get(`/api/v1/pix-keys${query}`, { auth: company.appID })).body;
const check = (company: TestCompany, key: string) =>
  server.client.get(`/api/v1/pix-keys/${encodeURIComponent(key)}/check`, { auth: company.appID });
const tokens = async (company: TestCompany) =>
  (await server.client.get('/api/v1/pix-keys/tokens', { auth: company.appID })).body;
const setTokens = (company: TestCompany, n: number) =>
  server.database.db
    .updateTable('pix_key_buckets')
    .set({ tokens: n })
    .where('company_id', '=', company.companyId)
    .execute();
const advance = (company: TestCompany, seconds: number) =>
  server.client.post('/api/v1/sandbox/clock/advance', { seconds }, { auth: company.appID });

test('a new company lists its default EVP key and its account', async () => {
  const body = await keys(a);
  assert.is(body.pixKeys.length, 1);
  assert.is(body.pixKeys[0].type, 'EVP');
  assert.is(body.pixKeys[0].isDefault, true);
  assert.is(body.account.accountId, a.accountId);
  assert.equal(body.pageInfo, { skip: 0, limit: 20, totalCount: 1, hasPreviousPage: false, hasNextPage: false });
});

test("create: the CNPJ key must be the company's (masked or not) and exists once; EVP keys are generated", async () => {
  const masked = `${aTaxId.slice(0, 2)}.${aTaxId.slice(2, 5)}.${aTaxId.slice(5, 8)}/${aTaxId.slice(8, 12)}-${aTaxId.slice(12)}`;
  const created = await server.client.post('/api/v1/pix-keys', { key: masked, type: 'CNPJ' }, { auth: a.appID });
  assert.is(created.status, 201, created.text);
  assert.equal(
    { ...created.body, createdAt: undefined },
    { key: aTaxId, type: 'CNPJ', isDefault: false, createdAt: undefined },
  );
  assert.equal((await server.client.post('/api/v1/pix-keys', { key: aTaxId, type: 'CNPJ' }, { auth: a.appID })).body, {
    error: 'Pix key already exists',
  });
  assert.equal(
    (await server.client.post('/api/v1/pix-keys', { key: '11222333000181', type: 'CNPJ' }, { auth: a.appID })).body,
    { error: 'The CNPJ key must be the CNPJ of the company' },
  );
  assert.equal((await server.client.post('/api/v1/pix-keys', { key: aTaxId, type: 'CNPJ' }, { auth: b.appID })).body, {
    error: 'The CNPJ key must be the CNPJ of the company',
  });
  const sent = '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a';
  const evp = await server.client.post('/api/v1/pix-keys', { key: sent, type: 'EVP' }, { auth: a.appID });
  assert.is(evp.status, 201);
  assert.is(evp.body.type, 'EVP');
  assert.ok(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(evp.body.key));
  assert.is.not(evp.body.key, sent);
  const email = await server.client.post('/api/v1/pix-keys', { key: 'x', type: 'EMAIL' }, { auth: a.appID });
  assert.equal(
    email.body.details,
    [{ field: 'body.type', message: 'must be one of CNPJ, EVP' }],
    'the accepted values',
  );
  // The guide's EVP body: no key at all.
  const bare = await server.client.post('/api/v1/pix-keys', { type: 'EVP' }, { auth: a.appID });
  assert.is(bare.status, 201, bare.text);
  assert.ok(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(bare.body.key));
  const list = await keys(a, '?limit=2');
  assert.is(list.pageInfo.totalCount, 4);
  assert.is(list.pixKeys[0].key, aEvp, 'the default first');
  assert.is(list.pageInfo.hasNextPage, true);
});

test('an account holds at most 20 keys', async () => {
  const c = await createCompany(server.client);
  for (let i = 1; i < 20; i++)
    assert.is(
      (await server.client.post('/api/v1/pix-keys', { key: 'evp', type: 'EVP' }, { auth: c.appID })).status,
      201,
    );
  assert.equal((await server.client.post('/api/v1/pix-keys', { key: 'evp', type: 'EVP' }, { auth: c.appID })).body, {
    error: 'An account may have at most 20 Pix keys',
  });
});

test("set default moves the default; another company's or an unknown key is 404", async () => {
  const res = await server.client.put(`/api/v1/pix-keys/${aTaxId}/default`, undefined, { auth: a.appID });
  assert.is(res.status, 200, res.text);
  assert.equal(
    { key: res.body.key, type: res.body.type, isDefault: res.body.isDefault },
    { key: aTaxId, type: 'CNPJ', isDefault: true },
  );
  const list = (await keys(a)).pixKeys;
  assert.equal(
    list.filter((k: { isDefault: boolean }) => k.isDefault).map((k: { key: string }) => k.key),
    [aTaxId],
  );
  assert.equal((await server.client.put(`/api/v1/pix-keys/${aTaxId}/default`, undefined, { auth: b.appID })).body, {
    error: 'Pix key not found',
  });
  assert.is(
    (await server.client.put('/api/v1/pix-keys/nope@nowhere.com/default', undefined, { auth: a.appID })).status,
    404,
  );
  assert.is(
    (await server.client.put(`/api/v1/pix-keys/${aEvp.toUpperCase()}/default`, undefined, { auth: a.appID })).status,
    200,
    'EVP keys compare without case',
  );
});

test("delete: not the default; another company's key is 404 and stays", async () => {
  assert.equal((await server.client.delete(`/api/v1/pix-keys/${aEvp}`, { auth: a.appID })).body, {
    error: 'The default Pix key cannot be deleted',
  });
  assert.equal((await server.client.delete(`/api/v1/pix-keys/${aTaxId}`, { auth: b.appID })).body, {
    error: 'Pix key not found',
  });
  const res = await server.client.delete(`/api/v1/pix-keys/${aTaxId}`, { auth: a.appID });
  assert.is(res.status, 204);
  assert.is(res.text, '');
  assert.is((await server.client.delete(`/api/v1/pix-keys/${aTaxId}`, { auth: a.appID })).status, 404);
  assert.ok(!(await keys(a)).pixKeys.some((k: { key: string }) => k.key === aTaxId));
  assert.is(
    (await check(b, aTaxId)).body.owner.name !== 'Aurora Moda Comercio de Roupas Ltda',
    true,
    'a deleted key leaves this server',
  );
});

test('a key of this server resolves to its company and account; the lookup answers an end-to-end id', async () => {
  const account = (await server.client.get(`/api/v1/account/${a.accountId}`, { auth: a.appID })).body.account;
  const res = await check(b, aEvp);
  assert.is(res.status, 200, res.text);
  assert.ok(/^E99999999\d{12}[A-Za-z0-9]{11}$/.test(res.body.pixKeyEndToEndId));
  assert.equal(
    { ...res.body, pixKeyEndToEndId: undefined },
    {
      pixKey: aEvp,
      type: 'EVP',
      pixKeyEndToEndId: undefined,
      owner: {
        name: 'Aurora Moda Comercio de Roupas Ltda',
        taxID: aTaxId,
        psp: OWN_PSP_NAME,
        branch: account.branch,
        account: account.account,
        accountType: 'TRAN',
      },
    },
  );
});

test('outside keys resolve to stable made-up owners; a CPF key shows its owner masked; documented keys are not found', async () => {
  const first = await server.client.post('/api/v1/pix-keys/check', { pixKey: '52998224725' }, { auth: b.appID });
  const second = await check(b, '52998224725');
  assert.is(first.status, 200, first.text);
  assert.is(first.body.type, 'CPF');
  assert.is(first.body.owner.taxID, '***.982.247-**');
  assert.equal(first.body.owner, second.body.owner);
  assert.is.not(first.body.pixKeyEndToEndId, second.body.pixKeyEndToEndId);
  const phone = await server.client.post('/api/v1/pix-keys/check', { pixKey: '+5511987654321' }, { auth: b.appID });
  assert.is(phone.body.type, 'PHONE');
  const email = await check(b, 'Fornecedor@TecidosBrasil.com.br');
  assert.is(email.body.pixKey, 'fornecedor@tecidosbrasil.com.br');
  assert.equal((await check(b, 'anyone@notfound.pixgate.dev')).body, { error: 'Pix key not found' });
  assert.is((await check(b, '00000000-0000-0000-0000-000000000000')).status, 404);
  const invalid = await check(b, 'not a key');
  assert.is(invalid.status, 400);
  assert.ok(invalid.body.error.startsWith('Invalid Pix key: '));
});

test('the token bucket: 500 tokens, 1 per lookup, 20 per lookup that finds nothing, invalid keys free; every move logged', async () => {
  const c = await createCompany(server.client);
  const fresh = await tokens(c);
  assert.equal(
    { ...fresh, nextRefresh: undefined },
    { tokens: 500, maxTokens: 500, tokensAfterRefresh: 500, refreshRate: 20, nextRefresh: undefined },
  );
  await check(c, '52998224725');
  await check(c, 'x@notfound.pixgate.dev');
  await check(c, 'not a key');
  const after = await tokens(c);
  assert.is(after.tokens, 479);
  assert.is(after.tokensAfterRefresh, 499);
  const logs = (await server.client.get('/api/v1/pix-keys/tokens/logs', { auth: c.appID })).body;
  assert.equal(
    logs.logs.map((l: Record<string, unknown>) => [
      l.operation,
      l.reason,
      l.tokens,
      l.tokensBefore,
      l.tokensAfter,
      l.pixKey,
      l.companyBankAccount,
      typeof l.endToEndId,
    ]),
    [
      ['REMOVE', 'pixKeyCheck', 20, 499, 479, 'x@notfound.pixgate.dev', c.accountId, 'undefined'],
      ['REMOVE', 'pixKeyCheck', 1, 500, 499, '52998224725', c.accountId, 'string'],
    ],
  );
  assert.is(logs.pageInfo.totalCount, 2);
  const paged = (await server.client.get('/api/v1/pix-keys/tokens/logs?skip=1&limit=1', { auth: c.appID })).body;
  assert.equal(paged.logs, [logs.logs[1]]);
  assert.equal(paged.pageInfo, { skip: 1, limit: 1, totalCount: 2, hasPreviousPage: true, hasNextPage: false });
  assert.is(
    (await server.client.get(`/api/v1/pix-keys/tokens/logs?companyBankAccount=${a.accountId}`, { auth: c.appID })).body
      .pageInfo.totalCount,
    0,
  );
  assert.is(
    (await server.client.get(`/api/v1/pix-keys/tokens/logs?companyBankAccount=${c.accountId}`, { auth: c.appID })).body
      .pageInfo.totalCount,
    2,
  );
  assert.is(
    (await server.client.get('/api/v1/pix-keys/tokens/logs', { auth: a.appID })).body.logs.some(
      (l: { companyBankAccount: string }) => l.companyBankAccount === c.accountId,
    ),
    false,
  );
});

test('an empty bucket answers 429 until it refills (20 a minute, from stored state, never above the maximum)', async () => {
  const c = await createCompany(server.client);
  await check(c, '52998224725');
  await setTokens(c, 0);
  const empty = await check(c, '52998224725');
  assert.is(empty.status, 429);
  assert.ok(empty.body.error.startsWith('The key lookup token bucket is empty'), empty.text);
  const paying = await server.client.post(
    '/api/v1/payment',
    { type: 'PIX_KEY', value: 1, destinationAlias: '52998224725', destinationAliasType: 'CPF', correlationID: 'empty' },
    { auth: c.appID },
  );
  assert.is(paying.status, 429, 'a payment that needs a lookup is refused too');
  const state = await tokens(c);
  assert.is(state.tokens, 0);
  assert.is(state.tokensAfterRefresh, 20);
  await advance(c, 61);
  assert.is((await tokens(c)).tokens, 20);
  assert.is((await check(c, '52998224725')).status, 200);
  const logs = (await server.client.get('/api/v1/pix-keys/tokens/logs?limit=2', { auth: c.appID })).body.logs;
  assert.equal(
    logs.map((l: Record<string, unknown>) => [l.operation, l.reason, l.tokens, l.tokensBefore, l.tokensAfter]),
    [
      ['REMOVE', 'pixKeyCheck', 1, 20, 19],
      ['ADD', 'refill', 20, 0, 20],
    ],
  );
  // A lookup that finds nothing takes what is left, never below zero.
  await setTokens(c, 5);
  assert.is((await check(c, 'y@notfound.pixgate.dev')).status, 404);
  assert.is((await tokens(c)).tokens, 0);
  await advance(c, 3 * 60);
  assert.is((await tokens(c)).tokens, 60);
  await advance(c, 60 * 60);
  assert.is((await tokens(c)).tokens, 500);
  assert.is((await tokens(c)).tokensAfterRefresh, 500);
});

test('key operations need the application\'s account open: "You need to link a Bank Account to this API"', async () => {
  const second = (await server.client.post('/api/v1/account', undefined, { auth: b.appID })).body.account.accountId;
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: second, application: { name: 'second', type: 'API' } },
    { auth: b.appID },
  );
  assert.is(app.status, 201, app.text);
  const appID = app.body.application.appID;
  assert.is((await server.client.get('/api/v1/pix-keys', { auth: appID })).status, 200);
  assert.is((await server.client.delete(`/api/v1/account/${second}`, { auth: b.appID })).status, 200);
  const noAccount = { error: 'You need to link a Bank Account to this API' };
  assert.equal((await server.client.get('/api/v1/pix-keys', { auth: appID })).body, noAccount);
  assert.equal(
    (await server.client.post('/api/v1/pix-keys', { key: 'e', type: 'EVP' }, { auth: appID })).body,
    noAccount,
  );
  assert.equal((await server.client.get('/api/v1/pix-keys/tokens', { auth: appID })).body, noAccount);
  assert.equal(
    (await server.client.post('/api/v1/pix-keys/check', { pixKey: '52998224725' }, { auth: appID })).body,
    noAccount,
  );
});

test.run();
