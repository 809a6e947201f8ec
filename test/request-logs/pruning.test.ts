// The request log keeps the newest N calls per company (here N = 5) and none older than the
// maximum age: the background pruning, run by hand here, on several processes at once too.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REQUEST_LOG_PRUNE_JOB } from '../../src/request-logs/request-logs.module';
import type { CapturedRequest } from '../../src/request-logs/request-logs.types';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const DAY = 86_400_000;

test.before(async () => {
  server = await startTestServer(
    { PIXGATE_REQUEST_LOG_LIMIT: '5', PIXGATE_REQUEST_LOG_MAX_AGE_DAYS: '30' },
    { backgroundJobs: false },
  );
  a = await createCompany(server.client);
  b = await createCompany(server.client);
});
test.after(async () => {
  await server.close();
});

async function requestIdsOf(company: TestCompany): Promise<string[]> {
  const { rows } = await sql<{ request_id: string }>`
    select request_id from request_logs where company_id = ${company.companyId} order by at desc, id desc`.execute(
    server.database.db,
  );
  return rows.map((r) => r.request_id);
}

// n calls of the company, oldest first; their request ids, newest first.
async function calls(company: TestCompany, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const requestId = `p-${randomUUID()}`;
    const res = await server.client.get('/api/v1/account', {
      auth: company.appID,
      headers: { 'x-request-id': requestId },
    });
    assert.is(res.status, 200);
    ids.unshift(requestId);
  }
  await server.services.requestLogs.flush();
  return ids;
}

function captured(company: TestCompany, at: number): CapturedRequest {
  return {
    companyId: company.companyId,
    clientId: company.clientId,
    at,
    requestId: `old-${randomUUID()}`,
    api: 'PLATFORM_API',
    method: 'GET',
    path: '/api/v1/account',
    query: '',
    operationId: 'listAccounts',
    status: 200,
    latencyMs: 1,
    idempotencyKey: undefined,
    ip: '127.0.0.1',
    userAgent: undefined,
    contentType: undefined,
    errorCode: undefined,
    errorMessage: undefined,
  };
}

test('a company keeps its newest 5 calls; another company loses nothing for it', async () => {
  const ofA = await calls(a, 8);
  const ofB = await calls(b, 3);
  assert.is((await requestIdsOf(a)).length, 8, 'written in full before the pruning');
  await server.services.jobs.runNow(REQUEST_LOG_PRUNE_JOB);
  assert.equal(await requestIdsOf(a), ofA.slice(0, 5));
  assert.equal(await requestIdsOf(b), ofB);
  // again: nothing more to do
  assert.equal(await server.services.requestLogs.prune(), { beyondLimit: 0, tooOld: 0 });
  // the API shows the same 5 (the list calls themselves are written after the answer)
  const listed = await server.client.get('/api/v1/request-logs', { auth: a.appID });
  assert.equal(
    listed.body.requestLogs.map((e: { requestId: string }) => e.requestId),
    ofA.slice(0, 5),
  );
  assert.is(listed.body.pageInfo.totalCount, 5);
});

test('entries older than the maximum age go, whatever their company', async () => {
  const now = Date.now();
  server.services.requestLogs.record(captured(b, now - 31 * DAY));
  server.services.requestLogs.record(captured(b, now - 29 * DAY));
  await server.services.requestLogs.flush();
  const before = await requestIdsOf(b);
  const pruned = await server.services.requestLogs.prune(now);
  assert.is(pruned.tooOld, 1);
  const after = await requestIdsOf(b);
  assert.equal(after, before.slice(0, -1), 'the one of 31 days ago went, the one of 29 stayed');
});

test('a pruning starts above where the last one stopped; once a minute it starts from the oldest row', async () => {
  const c = await createCompany(server.client);
  const service = server.services.requestLogs;
  const now = Date.now();
  await calls(c, 7);
  await service.prune(now);
  const kept = await requestIdsOf(c);
  assert.is(kept.length, 5);
  // A row another process wrote late (it waited out a restart), older than the bound, and a
  // new call: the next pruning deletes only above the bound, so the late row stays.
  const late = captured(c, now - 60 * 60_000);
  service.record(late);
  await service.flush();
  const [newest] = await calls(c, 1);
  await service.prune(now + 1_000);
  assert.equal(await requestIdsOf(c), [newest, ...kept.slice(0, 4), late.requestId]);
  // A minute later the pass from the oldest row finds it.
  await calls(c, 1);
  await service.prune(now + 61_000);
  const after = await requestIdsOf(c);
  assert.is(after.length, 5);
  assert.not.ok(after.includes(late.requestId));
});

postgresOnly('prunings running at once on several connections keep exactly the newest 5', async () => {
  const ofA = await calls(a, 40);
  const service = server.services.requestLogs;
  const results = await Promise.all([service.prune(), service.prune(), service.prune()]);
  const deleted = results.reduce((n, r) => n + r.beyondLimit, 0);
  assert.ok(deleted > 0);
  // a pruning that skipped rows locked by another leaves nothing for the next run to miss
  await calls(a, 1);
  await service.prune();
  const kept = await requestIdsOf(a);
  assert.is(kept.length, 5);
  assert.equal(kept.slice(1), ofA.slice(0, 4));
});

test.run();
