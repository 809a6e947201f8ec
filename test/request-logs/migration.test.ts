// The move of the request log from a row per entry to a page per batch (migration
// 2026_11_27_0100): the entries a database already holds are listed the same afterwards (order,
// fields, bodies), in pages of at most 500 per company; and its down turns pages back into rows.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { down, up } from '../../src/db/migrations/2026_11_27_0100_request_log_pages';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  // no timers: nothing is written while the table changes under the test
  server = await startTestServer({}, { backgroundJobs: false });
  a = await createCompany(server.client);
  b = await createCompany(server.client);
});
test.after(async () => {
  await server.close();
});

async function listOf(company: TestCompany): Promise<any> {
  const res = await server.client.get('/api/v1/request-logs?limit=100', { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body;
}

test('entries logged before the move are listed the same after it; down and up again', async () => {
  const failing = `m-${randomUUID()}`;
  await server.client.get('/api/v1/account', { auth: a.appID, headers: { 'x-request-id': `m-${randomUUID()}` } });
  const refused = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'x', value: 1.5 },
    { auth: a.appID, headers: { 'x-request-id': failing } },
  );
  assert.is(refused.status, 400);
  await server.client.get('/api/v1/account', { auth: a.appID, headers: { 'x-request-id': `m-${randomUUID()}` } });
  await server.services.requestLogs.flush();
  const before = await listOf(a);
  const detail = (await server.client.get(`/api/v1/request-logs/${failing}`, { auth: a.appID })).body;
  assert.is(before.requestLogs.length, 3);
  assert.ok(detail.requestLog.request.body.includes('1.5'));

  const db = server.database.db;
  await down(db);
  const rows = await sql<{ n: number }>`select count(*)::int as n from request_logs`.execute(db);
  assert.is(rows.rows[0]!.n, 3, 'down: a row per entry');
  // 600 more of company B, a millisecond apart: two pages after the move
  await sql`
    insert into request_logs (company_id, at, request_id, api, method, path, status, latency_ms)
    select ${b.companyId}, now() - (600 - g) * interval '1 millisecond', 'seeded-' || g, 'PLATFORM_API', 'GET',
      '/api/v1/account', 200, 1
    from generate_series(1, 600) as g`.execute(db);
  await up(db);

  const pages = await sql<{ company_id: string; entries: number }>`
    select company_id, entries from request_log_pages order by id`.execute(db);
  assert.equal(
    pages.rows.filter((p) => p.company_id === b.companyId).map((p) => p.entries),
    [500, 100],
  );
  assert.equal(
    pages.rows.filter((p) => p.company_id === a.companyId).map((p) => p.entries),
    [3],
  );
  const after = await listOf(a);
  // the list and detail calls made above are still buffered (not flushed): the same three
  assert.equal(after.requestLogs, before.requestLogs);
  assert.is(after.pageInfo.totalCount, 3);
  assert.equal((await server.client.get(`/api/v1/request-logs/${failing}`, { auth: a.appID })).body, detail);
  const ofB = await listOf(b);
  assert.is(ofB.pageInfo.totalCount, 600);
  assert.equal(
    ofB.requestLogs.slice(0, 2).map((e: { requestId: string }) => e.requestId),
    ['seeded-600', 'seeded-599'],
  );
  // a cursor crosses from the newer page into the older one
  let cursor: string | null = ofB.pageInfo.nextCursor;
  const seen = new Set<string>(ofB.requestLogs.map((e: { requestId: string }) => e.requestId));
  while (cursor) {
    const next = await server.client.get(`/api/v1/request-logs?limit=100&cursor=${cursor}`, { auth: b.appID });
    for (const e of next.body.requestLogs) seen.add(e.requestId);
    cursor = next.body.pageInfo.nextCursor;
  }
  assert.is(seen.size, 600);
});

test.run();
