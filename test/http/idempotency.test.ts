// The Idempotency-Key layer of platform POSTs: byte-for-byte replay, 422 on another request,
// 409 while the first runs, per company, at least 24 hours, failed requests free their key,
// and it covers every area's POSTs (and concurrent requests on the real Postgres).
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { fingerprintOf, keyHashOf } from '../../src/idempotency/idempotency.service';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceCompanyClock, advanceToLocalHour, fund, OUTSIDE_KEY } from '../payments/helpers';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client);
  b = await createCompany(server.client);
  await advanceToLocalHour(server, 14, a, b);
  await fund(server, a.accountId, 1_000_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const post = (company: TestCompany, path: string, body: unknown, key?: string) =>
  server.client.post(path, body, { auth: company.appID, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
const payment = (correlationID: string, value = 1_000) => ({
  type: 'PIX_KEY',
  value,
  destinationAlias: OUTSIDE_KEY,
  destinationAliasType: 'EMAIL',
  correlationID,
  autoApprove: true,
});
const count = async (company: TestCompany) =>
  (await server.client.get('/api/v1/payment', { auth: company.appID })).body.pageInfo.totalCount;

test('the same key and body replay the first answer byte for byte, executing once', async () => {
  const before = await count(a);
  const first = await post(a, '/api/v1/payment', payment('idem-1'), 'key-1');
  assert.is(first.status, 200, first.text);
  assert.is(first.headers.get('idempotent-replayed'), null);
  const again = await post(
    a,
    '/api/v1/payment',
    {
      autoApprove: true,
      correlationID: 'idem-1',
      destinationAliasType: 'EMAIL',
      destinationAlias: OUTSIDE_KEY,
      value: 1_000,
      type: 'PIX_KEY',
    },
    'key-1',
  );
  assert.is(again.status, 200);
  assert.is(again.text, first.text);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.is(again.headers.get('content-type'), first.headers.get('content-type'));
  assert.is(await count(a), before + 1);
});

test('the same key with another body, or on another path, answers 422', async () => {
  const other = await post(a, '/api/v1/payment', payment('idem-1', 2_000), 'key-1');
  assert.is(other.status, 422);
  assert.equal(other.body, { error: 'Idempotency-Key was already used with a different request' });
  assert.is((await post(a, '/api/v1/pix-keys/check', { pixKey: OUTSIDE_KEY }, 'key-1')).status, 422);
});

test('keys are per company; at most 255 characters', async () => {
  await fund(server, b.accountId, 10_000);
  const theirs = await post(b, '/api/v1/payment', payment('idem-b'), 'key-1');
  assert.is(theirs.status, 200, theirs.text);
  assert.is(theirs.headers.get('idempotent-replayed'), null);
  assert.equal((await post(a, '/api/v1/payment', payment('idem-long'), 'k'.repeat(256))).body, {
    error: 'Idempotency-Key must have at most 255 characters',
  });
  assert.is((await post(a, '/api/v1/payment', payment('idem-255'), 'k'.repeat(255))).status, 200);
});

test('a request that failed frees its key: the same request runs again', async () => {
  const poor = await createCompany(server.client);
  const refused = await post(poor, `/api/v1/account/${poor.accountId}/withdraw`, { value: 60_000 }, 'w-1');
  assert.is(refused.status, 400);
  await fund(server, poor.accountId, 60_000);
  const done = await post(poor, `/api/v1/account/${poor.accountId}/withdraw`, { value: 60_000 }, 'w-1');
  assert.is(done.status, 200, done.text);
  const replay = await post(poor, `/api/v1/account/${poor.accountId}/withdraw`, { value: 60_000 }, 'w-1');
  assert.is(replay.text, done.text);
  assert.is(replay.headers.get('idempotent-replayed'), 'true');
});

test("other areas' POSTs are covered: an application is created once and its secret replayed", async () => {
  const body = { accountId: a.accountId, application: { name: 'erp', type: 'API', scopes: ['CHARGE_GET'] } };
  const first = await post(a, '/api/v1/application', body, 'app-1');
  assert.is(first.status, 201, first.text);
  const again = await post(a, '/api/v1/application', body, 'app-1');
  assert.is(again.status, 201);
  assert.is(again.text, first.text);
  const apps = await server.database.db
    .selectFrom('applications')
    .select('id')
    .where('company_id', '=', a.companyId)
    .where('name', '=', 'erp')
    .execute();
  assert.is(apps.length, 1);
});

test('while the first request runs the same key answers 409; an abandoned one is taken over', async () => {
  const body = payment('idem-running');
  const url = '/api/v1/payment';
  const now = await server.services.clock.now(a.companyId);
  const record = {
    company_id: a.companyId,
    key_hash: keyHashOf(a.companyId, 'running-1'),
    operation_id: 'createPayment',
    fingerprint: fingerprintOf('createPayment', url, body),
    state: 'RUNNING' as const,
    created_at: now,
    locked_until: new Date(now.getTime() + 60_000),
    expires_at: new Date(now.getTime() + 86_400_000),
  };
  await server.database.db.insertInto('idempotency_records').values(record).execute();
  const busy = await post(a, url, body, 'running-1');
  assert.is(busy.status, 409);
  assert.equal(busy.body, { error: 'A request with this Idempotency-Key is still being processed' });
  assert.is(
    (await post(a, url, payment('idem-running', 5), 'running-1')).status,
    422,
    'another body is 422 even while running',
  );
  await server.database.db
    .updateTable('idempotency_records')
    .set({ locked_until: new Date(now.getTime() - 1) })
    .where('key_hash', '=', keyHashOf(a.companyId, 'running-1'))
    .execute();
  const taken = await post(a, url, body, 'running-1');
  assert.is(taken.status, 200, taken.text);
});

test('records are kept 24 hours; after that the key is new again, and the cleanup job drops them', async () => {
  await advanceCompanyClock(server, a, 23 * 3600);
  assert.is(
    (await post(a, '/api/v1/payment', payment('idem-1', 2_000), 'key-1')).status,
    422,
    'still kept after 23 hours',
  );
  await advanceCompanyClock(server, a, 2 * 3600);
  await advanceToLocalHour(server, 14, a, b);
  const fresh = await post(a, '/api/v1/payment', payment('idem-new'), 'key-1');
  assert.is(fresh.status, 200, fresh.text);
  assert.is(fresh.headers.get('idempotent-replayed'), null);
  await advanceCompanyClock(server, a, 25 * 3600);
  await server.services.jobs.runNow('idempotency.cleanup');
  const left = await server.database.db
    .selectFrom('idempotency_records')
    .select('key_hash')
    .where('company_id', '=', a.companyId)
    .execute();
  assert.equal(left, []);
});

test('requests without the header are not recorded; GETs ignore it', async () => {
  const before = await server.database.db
    .selectFrom('idempotency_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await post(a, '/api/v1/pix-keys/check', { pixKey: OUTSIDE_KEY });
  await server.client.get('/api/v1/pix-keys/tokens', { auth: a.appID, headers: { 'Idempotency-Key': 'get-1' } });
  const after = await server.database.db
    .selectFrom('idempotency_records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.is(Number(after.n), Number(before.n));
});

postgresOnly('concurrent requests with one key execute once (real Postgres only)', async () => {
  await advanceToLocalHour(server, 15, a, b);
  const before = await count(a);
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => post(a, '/api/v1/payment', payment('idem-race'), 'race-1')),
  );
  const statuses = answers.map((r) => r.status);
  assert.ok(
    statuses.every((s) => s === 200 || s === 409),
    statuses.join(','),
  );
  const ok = answers.filter((r) => r.status === 200);
  assert.ok(ok.length >= 1);
  assert.ok(
    ok.every((r) => r.text === ok[0]!.text),
    'every 200 is the same answer',
  );
  assert.is(await count(a), before + 1);
});

test.run();
