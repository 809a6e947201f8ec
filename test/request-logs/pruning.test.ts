// The request log keeps the newest N calls per company (here N = 5) and none older than the
// maximum age: the background pruning, run by hand here, on several processes at once too.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REQUEST_LOG_PRUNE_JOB } from '../../src/request-logs/request-logs.module';
import { createCompany, type TestCompany } from '../support/fixtures';
import { capturedCall } from '../support/request-logs';
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

// What is stored of the company, newest first (as the list orders it), read straight out of
// its pages; and how many pages hold it.
async function requestIdsOf(company: TestCompany): Promise<string[]> {
  const { rows } = await sql<{ request_id: string }>`
    select r."requestId" as request_id
      from request_log_pages p, json_to_recordset(p.body::json) as r("requestId" text, "at" int8, "n" int)
     where p.company_id = ${company.companyId}
     order by r.at desc, p.id desc, r.n desc`.execute(server.database.db);
  return rows.map((r) => r.request_id);
}

async function pagesOf(company: TestCompany): Promise<{ entries: number; first_at: Date; last_at: Date }[]> {
  const { rows } = await sql<{ entries: number; first_at: Date; last_at: Date }>`
    select entries, first_at, last_at from request_log_pages where company_id = ${company.companyId}
     order by id`.execute(server.database.db);
  return rows;
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
  server.services.requestLogs.record(capturedCall(b, { at: now - 31 * DAY }));
  server.services.requestLogs.record(capturedCall(b, { at: now - 29 * DAY }));
  await server.services.requestLogs.flush();
  const before = await requestIdsOf(b);
  const pruned = await server.services.requestLogs.prune(now);
  assert.is(pruned.tooOld, 1);
  const after = await requestIdsOf(b);
  assert.equal(after, before.slice(0, -1), 'the one of 31 days ago went, the one of 29 stayed');
});

test('whole pages beyond the newest 5 go, and the page across the bound keeps its newest', async () => {
  const c = await createCompany(server.client);
  // three pages (a flush each) of 3, 4 and 2 entries
  const first = await calls(c, 3);
  const second = await calls(c, 4);
  const third = await calls(c, 2);
  assert.equal(
    (await pagesOf(c)).map((p) => p.entries),
    [3, 4, 2],
  );
  const pruned = await server.services.requestLogs.prune();
  assert.is(pruned.beyondLimit, 4);
  assert.equal(
    (await pagesOf(c)).map((p) => p.entries),
    [3, 2],
    'the oldest page went whole; the second kept its 3 newest',
  );
  assert.equal(await requestIdsOf(c), [...third, ...second.slice(0, 3)]);
  assert.not.ok((await requestIdsOf(c)).some((id) => first.includes(id)));
  // the cut page's span is its entries' own
  const [cut] = await pagesOf(c);
  const listed = await server.client.get('/api/v1/request-logs?limit=20', { auth: c.appID });
  const times = listed.body.requestLogs
    .filter((e: { requestId: string }) => second.includes(e.requestId))
    .map((e: { time: string }) => Date.parse(e.time));
  assert.is(cut!.first_at.getTime(), Math.min(...times));
  assert.is(cut!.last_at.getTime(), Math.max(...times));
});

test('an entry written late counts from when it was written, and is listed at its time', async () => {
  const c = await createCompany(server.client);
  const service = server.services.requestLogs;
  const now = Date.now();
  await calls(c, 5);
  // written now, though the call was an hour ago (another process's buffer waited out a restart)
  const late = capturedCall(c, { at: now - 60 * 60_000 });
  service.record(late);
  await service.flush();
  await service.prune(now);
  const kept = await requestIdsOf(c);
  assert.is(kept.length, 5);
  assert.is(kept[4], late.requestId, 'kept: it is among the 5 written last, listed last by its time');
  // four more writes keep it (the 5 written last); a fifth pushes it out
  await calls(c, 4);
  await service.prune(now);
  assert.ok((await requestIdsOf(c)).includes(late.requestId));
  await calls(c, 1);
  await service.prune(now);
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
