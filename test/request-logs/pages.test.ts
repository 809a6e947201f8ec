// The list of a company's calls out of its pages: without a filter only the pages that can hold
// the answer are read (request-logs.repository.ts, newestRequestLogs). With pages whose times
// overlap (processes write concurrently; a late batch holds old calls), that list, paged by
// skip or by cursor, must be exactly the one every page gives (a filter that matches all).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { capturedCall } from '../support/request-logs';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let c: TestCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  c = await createCompany(server.client);
});
test.after(async () => {
  await server.close();
});

// A small deterministic generator: the same pages on every run.
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

// Every page of the list, following `next` (a cursor or a skip), as request ids.
async function walk(query: string, limit: number, by: 'cursor' | 'skip'): Promise<string[]> {
  const ids: string[] = [];
  let more = `${query}&limit=${limit}`;
  for (let guard = 0; guard < 200; guard++) {
    const res = await server.client.get(`/api/v1/request-logs?${more}`, { auth: c.appID });
    assert.is(res.status, 200, res.text);
    ids.push(...res.body.requestLogs.map((e: { requestId: string }) => e.requestId));
    if (!res.body.pageInfo.hasNextPage) return ids;
    more =
      by === 'cursor'
        ? `${query}&limit=${limit}&cursor=${res.body.pageInfo.nextCursor}`
        : `${query}&limit=${limit}&skip=${ids.length}`;
  }
  return assert.unreachable('more than 200 pages') as never;
}

test('pages overlapping in time: the unfiltered list equals the list read from every page', async () => {
  const random = lcg(7);
  const base = Date.now() - 3_600_000;
  const service = server.services.requestLogs;
  // 12 pages of 1 to 9 calls each, spread over overlapping windows, some at the same millisecond
  for (let page = 0; page < 12; page++) {
    const start = base + Math.floor(random() * 40) * 1000;
    const size = 1 + Math.floor(random() * 9);
    for (let k = 0; k < size; k++) service.record(capturedCall(c, { at: start + Math.floor(random() * 20) * 500 }));
    await service.flush();
  }
  const everyPage = await walk('status=2xx', 100, 'cursor');
  assert.ok(everyPage.length >= 12);
  const first = await server.client.get('/api/v1/request-logs?limit=100', { auth: c.appID });
  assert.is(first.body.pageInfo.totalCount, everyPage.length);
  assert.equal(
    first.body.requestLogs.map((e: { requestId: string }) => e.requestId),
    everyPage.slice(0, 100),
  );
  for (const limit of [1, 3, 8]) {
    assert.equal(await walk('', limit, 'cursor'), everyPage, `by cursor, ${limit} a page`);
    assert.equal(await walk('', limit, 'skip'), everyPage, `by skip, ${limit} a page`);
  }
  const times = first.body.requestLogs.map((e: { time: string }) => Date.parse(e.time));
  assert.equal(
    times,
    [...times].sort((x: number, y: number) => y - x),
    'newest first',
  );
});

test.run();
