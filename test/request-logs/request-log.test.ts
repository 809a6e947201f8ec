// The request log through the API: calls of both APIs land in the log of the company whose
// credentials they presented (after a flush, never on the request's path), failed calls keep
// their redacted bodies, nothing secret reaches a row, filters and pages, and company B never
// sees company A's calls.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countStatements } from '../../src/db/statement-counter';
import { basic, createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { capturedCall } from '../support/request-logs';
import { startTestServer, type TestServer } from '../support/server';

// The log names an Idempotency-Key by its SHA-256 (first 16 hex digits), never the key itself:
// the key seals the answer the idempotency table keeps.
const fingerprintOf = (key: string) => `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let bearerA: string;

test.before(async () => {
  // no timers: entries are written when a test flushes
  server = await startTestServer({}, { backgroundJobs: false });
  a = await createCompany(server.client);
  b = await createCompany(server.client);
  bearerA = await pixToken(server.client, a);
});
test.after(async () => {
  await server.close();
});

const flush = () => server.services.requestLogs.flush();

async function rejection(work: () => Promise<unknown>): Promise<{ status: number }> {
  try {
    await work();
  } catch (error) {
    return error as { status: number };
  }
  return assert.unreachable('resolved') as never;
}
const rid = (label: string) => `${label}-${randomUUID()}`;

async function logOf(company: TestCompany, query = ''): Promise<any> {
  const res = await server.client.get(`/api/v1/request-logs${query}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body;
}

async function entryOf(company: TestCompany, requestId: string) {
  return server.client.get(`/api/v1/request-logs/${requestId}`, { auth: company.appID });
}

// Every stored row carrying this request id, whatever the company.
async function rowsWithRequestId(requestId: string) {
  const { rows } = await sql<{ company_id: string }>`
    select p.company_id from request_log_pages p, json_to_recordset(p.body::json) as r("requestId" text)
     where r."requestId" = ${requestId}`.execute(server.database.db);
  return rows;
}

test('calls of both APIs are in the company log after a flush, newest first, with what they were', async () => {
  const ids = { create: rid('create'), missing: rid('missing'), token: rid('token'), cob: rid('cob') };
  const before = Date.now();
  const created = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'rl-1', value: 1234 },
    { auth: a.appID, headers: { 'x-request-id': ids.create, 'idempotency-key': 'idem-rl-1', 'user-agent': 'erp/2.3' } },
  );
  assert.is(created.status, 200, created.text);
  const missing = await server.client.get('/api/v1/charge/no-such-charge', {
    auth: a.appID,
    headers: { 'x-request-id': ids.missing },
  });
  assert.is(missing.status, 404);
  const token = await server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', scope: 'cob.read' },
    auth: basic(a.clientId, a.clientSecret),
    headers: { 'x-request-id': ids.token },
  });
  assert.is(token.status, 200, token.text);
  const cob = await server.client.get(`/pix/v2/cob/${created.body.charge.transactionID}`, {
    auth: `Bearer ${token.body.access_token}`,
    headers: { 'x-request-id': ids.cob },
  });
  assert.is(cob.status, 200, cob.text);
  const after = Date.now();

  assert.is((await entryOf(a, ids.create)).status, 404, 'not written before a flush');
  await flush();
  const { requestLogs } = await logOf(a, '?limit=100');
  const ours = requestLogs.filter((e: any) => Object.values(ids).includes(e.requestId));
  assert.equal(
    ours.map((e: any) => [e.requestId, e.api, e.method, e.operationId, e.status]),
    [
      [ids.cob, 'PIX_API', 'GET', 'getCob', 200],
      [ids.token, 'PIX_API', 'POST', 'issueToken', 200],
      [ids.missing, 'PLATFORM_API', 'GET', 'getCharge', 404],
      [ids.create, 'PLATFORM_API', 'POST', 'createCharge', 200],
    ],
  );
  for (const e of ours) {
    assert.is(e.clientId, a.clientId);
    assert.ok(Date.parse(e.time) >= before - 1 && Date.parse(e.time) <= after, `${e.time} on the real clock`);
    assert.ok(e.latencyMs > 0);
  }
  const create = ours.find((e: any) => e.requestId === ids.create);
  assert.equal(
    [create.path, create.query, create.idempotencyKey, create.errorCode, create.errorMessage],
    ['/api/v1/charge', null, fingerprintOf('idem-rl-1'), null, null],
  );
  const miss = ours.find((e: any) => e.requestId === ids.missing);
  assert.equal(
    [miss.path, miss.errorCode, miss.errorMessage],
    ['/api/v1/charge/no-such-charge', 'NOT_FOUND', 'Charge not found'],
  );
  // the detail: the request's headers of interest; a 2xx keeps no body
  const detail = (await entryOf(a, ids.create)).body.requestLog;
  assert.equal(detail.request, {
    ip: detail.request.ip,
    userAgent: 'erp/2.3',
    contentType: 'application/json',
    body: null,
    bodyClipped: false,
  });
  assert.match(detail.request.ip, /127\.0\.0\.1/);
  assert.equal(detail.response, { body: null, bodyClipped: false });
  const failed = (await entryOf(a, ids.missing)).body.requestLog;
  assert.equal(JSON.parse(failed.response.body), { error: 'Charge not found' });
});

test('failed calls keep redacted bodies; no credential, token or card number reaches any row', async () => {
  const webhookAuthorization = `hook-auth-${randomUUID()}`;
  const password = `pw-${randomUUID()}`;
  const pem = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${randomUUID()}\n-----END RSA PRIVATE KEY-----`;
  const ids = { charge: rid('charge'), hook: rid('hook'), token: rid('token'), query: rid('query') };
  const charge = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'rl-bad',
      value: -5,
      comment: `card 4111 1111 1111 1111, token ${bearerA.slice(7)}`,
      customer: { name: 'Maria', password },
      clientSecret: a.clientSecret,
      privateKey: pem,
    },
    { auth: a.appID, headers: { 'x-request-id': ids.charge } },
  );
  assert.is(charge.status, 400);
  const hook = await server.client.post(
    '/api/v1/webhook',
    {
      webhook: {
        name: 'x',
        event: 'NOT_AN_EVENT',
        url: 'https://example.com/hook',
        authorization: webhookAuthorization,
      },
    },
    { auth: a.appID, headers: { 'x-request-id': ids.hook } },
  );
  assert.is(hook.status, 400, hook.text);
  // valid client credentials, a scope the application does not have, the secret again in the form
  const token = await server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', scope: 'nope.read', client_secret: a.clientSecret },
    auth: basic(a.clientId, a.clientSecret),
    headers: { 'x-request-id': ids.token },
  });
  assert.is(token.status, 400, token.text);
  const query = await server.client.get(`/api/v1/charge?access_token=${bearerA.slice(7)}&card=5555555555554444`, {
    auth: a.appID,
    headers: { 'x-request-id': ids.query },
  });
  assert.ok(query.status === 200 || query.status === 400, query.text);
  await flush();

  const chargeEntry = (await entryOf(a, ids.charge)).body.requestLog;
  const sent = JSON.parse(chargeEntry.request.body);
  assert.is(sent.comment, 'card **** **** **** 1111, token [redacted]');
  assert.is(sent.customer.password, '[redacted]');
  assert.is(sent.clientSecret, '[redacted]');
  assert.is(sent.privateKey, '[redacted]');
  assert.is(sent.value, -5);
  assert.equal(JSON.parse(chargeEntry.response.body), charge.body);
  assert.is(chargeEntry.errorCode, 'VALIDATION');
  const hookEntry = (await entryOf(a, ids.hook)).body.requestLog;
  assert.is(JSON.parse(hookEntry.request.body).webhook.authorization, '[redacted]');
  assert.is(JSON.parse(hookEntry.request.body).webhook.url, 'https://example.com/hook');
  const tokenEntry = (await entryOf(a, ids.token)).body.requestLog;
  assert.equal(JSON.parse(tokenEntry.request.body), {
    grant_type: 'client_credentials',
    scope: 'nope.read',
    client_secret: '[redacted]',
  });
  assert.equal([tokenEntry.api, tokenEntry.operationId, tokenEntry.status], ['PIX_API', 'issueToken', 400]);
  const queryEntry = (await entryOf(a, ids.query)).body.requestLog;
  assert.is(queryEntry.query, 'access_token=%5Bredacted%5D&card=************4444');

  // the whole table, every column of every page (and the pages' entries), as text
  const { rows } = await sql<{ body: string }>`select * from request_log_pages`.execute(server.database.db);
  const everything = JSON.stringify(rows) + rows.map((r) => r.body).join('\n');
  for (const secret of [
    a.appID,
    a.clientSecret,
    b.appID,
    b.clientSecret,
    bearerA.slice(7),
    webhookAuthorization,
    password,
    'MIIEpAIBAAKCAQEA',
    '4111 1111 1111 1111',
    '5555555555554444',
  ])
    assert.not.ok(everything.includes(secret), `a row holds ${secret.slice(0, 24)}`);
  const entries = rows.flatMap((r) => JSON.parse(r.body) as Array<Record<string, unknown>>);
  const twoHundreds = entries.filter((e) => (e.status as number) < 400);
  assert.ok(twoHundreds.length > 0);
  assert.ok(twoHundreds.every((e) => e.requestBody === undefined && e.responseBody === undefined));
});

test("a call belongs to the company whose credentials verified; others are in no company's log", async () => {
  const erp = await server.client.post(
    '/api/v1/application',
    { accountId: a.accountId, application: { name: 'erp', type: 'API', scopes: ['CHARGE_GET'] } },
    { auth: a.appID },
  );
  assert.is(erp.status, 201, erp.text);
  const ids = {
    wrongSecret: rid('wrong-secret'),
    wrongAppId: rid('wrong-appid'),
    badBearer: rid('bad-bearer'),
    open: rid('open'),
    scope: rid('scope'),
    pixScope: rid('pix-scope'),
    otherCompany: rid('b'),
  };
  const wrongSecret = await server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials' },
    auth: basic(a.clientId, 'Client_Secret_not-the-one'),
    headers: { 'x-request-id': ids.wrongSecret },
  });
  assert.is(wrongSecret.status, 401);
  const wrongAppId = await server.client.get('/api/v1/charge', {
    auth: Buffer.from(`${a.clientId}:Client_Secret_not-the-one`).toString('base64'),
    headers: { 'x-request-id': ids.wrongAppId },
  });
  assert.is(wrongAppId.status, 401);
  const badBearer = await server.client.get('/pix/v2/cob/abcdefghijklmnopqrstuvwxyz01234', {
    auth: 'Bearer not-a-token',
    headers: { 'x-request-id': ids.badBearer },
  });
  assert.is(badBearer.status, 401);
  const open = await server.client.get('/api/v1/sandbox/clock', { headers: { 'x-request-id': ids.open } });
  assert.is(open.status, 200);
  // verified credentials refused for a scope: the company's own application, in its log
  const scope = await server.client.get('/api/v1/charge', {
    auth: erp.body.application.appID,
    headers: { 'x-request-id': ids.scope },
  });
  assert.is(scope.status, 403);
  const narrow = await pixToken(server.client, a, 'cob.read');
  const pixScope = await server.client.get('/pix/v2/pix?inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z', {
    auth: narrow,
    headers: { 'x-request-id': ids.pixScope },
  });
  assert.is(pixScope.status, 403);
  const other = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z', {
    auth: await pixToken(server.client, b),
    headers: { 'x-request-id': ids.otherCompany },
  });
  assert.is(other.status, 200);
  await flush();

  for (const id of [ids.wrongSecret, ids.wrongAppId, ids.badBearer, ids.open])
    assert.equal(await rowsWithRequestId(id), [], `${id} is in no log`);
  const refused = (await entryOf(a, ids.scope)).body.requestLog;
  assert.equal(
    [refused.clientId, refused.status, refused.operationId, refused.errorCode],
    [erp.body.application.clientId, 403, 'listCharges', 'MISSING_SCOPE'],
  );
  const pixRefused = (await entryOf(a, ids.pixScope)).body.requestLog;
  assert.equal([pixRefused.api, pixRefused.status, pixRefused.operationId], ['PIX_API', 403, 'listPix']);
  assert.equal(await rowsWithRequestId(ids.otherCompany), [{ company_id: b.companyId }]);
});

test('texts the client chose are kept within what the answer allows', async () => {
  const requestId = rid('long');
  const res = await server.client.get(`/api/v1/account/${'a'.repeat(9000)}`, {
    auth: a.appID,
    headers: {
      'x-request-id': requestId,
      'idempotency-key': 'k'.repeat(300),
      'user-agent': 'u'.repeat(400),
      'content-type': `text/${'c'.repeat(300)}`,
    },
  });
  assert.ok(res.status >= 400);
  await flush();
  const entry = (await entryOf(a, requestId)).body.requestLog;
  assert.equal(
    [entry.path.length, entry.idempotencyKey.length, entry.request.userAgent.length, entry.request.contentType.length],
    [8192, 'sha256:'.length + 16, 256, 256],
  );
  assert.ok(entry.path.startsWith('/api/v1/account/aaaa'));
});

test("company B never sees company A's calls", async () => {
  const mine = rid('a-only');
  await server.client.get('/api/v1/account', { auth: a.appID, headers: { 'x-request-id': mine } });
  await flush();
  assert.is((await entryOf(a, mine)).status, 200);
  const theirs = await entryOf(b, mine);
  const missing = await entryOf(b, rid('nobody'));
  assert.is(theirs.status, 404);
  assert.equal(theirs.body, missing.body);
  const listed = await logOf(b, '?limit=100');
  assert.ok(listed.requestLogs.length > 0);
  assert.ok(listed.requestLogs.every((e: any) => e.clientId === b.clientId));
  assert.is((await logOf(b, `?clientId=${encodeURIComponent(a.clientId)}`)).pageInfo.totalCount, 0);
});

test('filters: status and class, operationId, clientId, period; pages by skip and by cursor', async () => {
  const c = await createCompany(server.client);
  const calls: string[] = [];
  const call = async (path: string, status: number) => {
    const requestId = rid('f');
    const res = await server.client.get(path, { auth: c.appID, headers: { 'x-request-id': requestId } });
    assert.is(res.status, status, `${path}: ${res.text}`);
    calls.unshift(requestId);
  };
  for (let i = 0; i < 4; i++) await call(`/api/v1/charge/none-${i}`, 404);
  for (let i = 0; i < 3; i++) await call('/api/v1/charge', 200);
  await call('/api/v1/charge?limit=0', 400);
  await flush();
  const ids = async (query: string) => (await logOf(c, query)).requestLogs.map((e: any) => e.requestId);
  const total = async (query: string) => (await logOf(c, query)).pageInfo.totalCount;

  assert.equal(await ids('?limit=100'), calls);
  assert.is(await total('?status=404'), 4);
  assert.is(await total('?status=4xx'), 5);
  assert.is(await total('?status=2xx'), 3);
  assert.is(await total('?status=5xx'), 0);
  assert.is(await total('?operationId=getCharge'), 4);
  assert.is(await total('?operationId=listCharges&status=400'), 1);
  assert.is(await total(`?clientId=${encodeURIComponent(c.clientId)}`), 8);
  const newest = (await logOf(c, '?limit=1')).requestLogs[0].time;
  assert.is(await total(`?start=${newest}`), await total(`?start=${newest}&end=2999-01-01T00:00:00Z`));
  assert.is(await total(`?end=${encodeURIComponent('2000-01-01T00:00:00Z')}`), 0);
  assert.is(await total(`?start=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`), 0);
  assert.is(await total('?start=2000-01-01T00:00:00Z'), 8);

  // skip and limit
  const page = await logOf(c, '?skip=2&limit=3');
  assert.equal(
    page.requestLogs.map((e: any) => e.requestId),
    calls.slice(2, 5),
  );
  assert.equal(
    { ...page.pageInfo, nextCursor: typeof page.pageInfo.nextCursor },
    { skip: 2, limit: 3, totalCount: 8, hasPreviousPage: true, hasNextPage: true, nextCursor: 'string' },
  );
  // the cursor: pages that do not shift when new calls arrive
  const first = await logOf(c, '?limit=3');
  await call('/api/v1/charge/arrived-meanwhile', 404);
  await flush();
  const seen = [...first.requestLogs.map((e: any) => e.requestId)];
  for (let cursor = first.pageInfo.nextCursor; cursor;) {
    const next = await logOf(c, `?limit=3&cursor=${cursor}`);
    assert.ok(next.pageInfo.hasPreviousPage);
    seen.push(...next.requestLogs.map((e: any) => e.requestId));
    cursor = next.pageInfo.nextCursor;
  }
  assert.equal(seen, calls.slice(1), 'every call once, in order, without the one that arrived');
  assert.is((await logOf(c, `?status=404&limit=2&cursor=${first.pageInfo.nextCursor}`)).pageInfo.totalCount, 5);
});

test('bad list queries are refused in the platform format', async () => {
  const refused = async (query: string, field: string) => {
    const res = await server.client.get(`/api/v1/request-logs${query}`, { auth: a.appID });
    assert.is(res.status, 400, `${query}: ${res.text}`);
    assert.ok(
      res.body.details.some((d: { field: string }) => d.field.endsWith(field)),
      `${query}: ${res.text}`,
    );
  };
  await refused('?cursor=bm90LWEtY3Vyc29y', 'cursor');
  await refused('?status=6xx', 'status');
  await refused('?status=40', 'status');
  await refused('?start=2026-02-01T00:00:00Z&end=2026-01-01T00:00:00Z', 'end');
  await refused('?operationId=a%20b', 'operationId');
  const badId = await server.client.get('/api/v1/request-logs/not%20an%20id', { auth: a.appID });
  assert.is(badId.status, 400, badId.text);
});

test("recording sends no statement of the request's own: a full batch is written outside its count", async () => {
  const service = server.services.requestLogs;
  await service.flush();
  const before = service.status().written;
  const tally = { statements: 0 };
  const requestIds = Array.from({ length: 500 }, () => rid('batch'));
  await countStatements(tally, async () => {
    // 500 entries: the last one fills a batch and starts its write
    for (const requestId of requestIds) {
      service.record(capturedCall(a, { requestId, path: '/api/v1/charge', operationId: 'listCharges' }));
    }
    await service.flush();
  });
  assert.is(service.status().written - before, 500, 'written');
  assert.is(tally.statements, 0, 'not counted as the caller');
  assert.is((await rowsWithRequestId(requestIds[499]!)).length, 1);
});

test('the service functions a dashboard calls: list and get by company id, checking what the API would', async () => {
  const service = server.services.requestLogs;
  await flush();
  const api = await logOf(a, '?status=4xx&limit=3');
  const direct = await service.list(a.companyId, { status: '4xx', limit: 3 });
  assert.equal(direct.requestLogs, api.requestLogs);
  assert.is(direct.pageInfo.totalCount, api.pageInfo.totalCount);
  const next = await service.list(a.companyId, { status: '4xx', limit: 3, cursor: direct.pageInfo.nextCursor! });
  assert.equal(next.requestLogs, (await logOf(a, `?status=4xx&limit=3&cursor=${api.pageInfo.nextCursor}`)).requestLogs);
  const one = await service.get(a.companyId, direct.requestLogs[0]!.requestId);
  assert.equal(one, (await entryOf(a, direct.requestLogs[0]!.requestId)).body.requestLog);
  assert.is((await rejection(() => service.get(b.companyId, direct.requestLogs[0]!.requestId))).status, 404);
  for (const status of ['4x', '600', '4XX', '40 4'])
    assert.is((await rejection(() => service.list(a.companyId, { status }))).status, 400, status);
  assert.is((await service.list(a.companyId, { limit: 0, skip: -3 })).requestLogs.length, 1, 'bounded');
});

test('a read of one object still sends one statement with the log on', async () => {
  await server.client.post('/api/v1/charge', { correlationID: 'rl-read', value: 100 }, { auth: a.appID });
  for (let i = 0; i < 3; i++) {
    const res = await server.client.get('/api/v1/charge/rl-read', { auth: a.appID });
    assert.is(res.status, 200);
    assert.is(res.headers.get('x-db-statements'), '1');
  }
  const list = await server.client.get('/api/v1/request-logs?status=2xx&operationId=getCharge', { auth: a.appID });
  assert.is(list.headers.get('x-db-statements'), '1', 'the list: one statement');
  const one = await server.client.get(`/api/v1/request-logs/${rid('none')}`, { auth: a.appID });
  assert.is(one.headers.get('x-db-statements'), '1', 'the detail: one statement');
});

test.run();
