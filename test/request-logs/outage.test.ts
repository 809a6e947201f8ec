// The request log when its table cannot be written: requests are answered as before, a batch
// that fails is retried once and then dropped, drops are counted in /readyz, and entries flow
// again once the table is back. With the table locked (a database slower than the traffic),
// the buffer fills and drops the rest, counted.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { capturedCall } from '../support/request-logs';
import { startTestServer, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';

let server: TestServer;
let a: TestCompany;
// entries the server was given (authenticated calls, and those recorded by hand)
let recorded = 0;

test.before(async () => {
  server = await startTestServer({ PIXGATE_REQUEST_LOG_BUFFER: '50' }, { backgroundJobs: false });
  a = await createCompany(server.client);
});
test.after(async () => {
  await server.close();
});

const status = () => server.services.requestLogs.status();
const fingerprintOf = (key: string) => `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

async function call(): Promise<string> {
  const requestId = `o-${randomUUID()}`;
  const res = await server.client.get('/api/v1/account', { auth: a.appID, headers: { 'x-request-id': requestId } });
  assert.is(res.status, 200, 'requests are answered whatever the log does');
  recorded++;
  return requestId;
}

async function stored(requestIds: string[]): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from request_log_pages p, json_to_recordset(p.body::json) as r("requestId" text)
     where r."requestId" = any(${requestIds}::text[])`.execute(server.database.db);
  return Number(rows[0]!.n);
}

// Every entry the writer was given, by what became of it.
function accounted(): number {
  const { written, buffered, dropped } = status();
  return written + buffered + dropped.bufferFull + dropped.writeFailed + dropped.shutdown;
}

// Nothing goes missing without being counted.
function assertAccounted(): void {
  assert.is(accounted(), recorded);
}

test('a table that cannot be written: one retry, then dropped and counted; then writing again', async () => {
  const before = [await call(), await call()];
  await server.services.requestLogs.flush();
  assert.is(await stored(before), 2);
  recorded = accounted();

  await sql`alter table request_log_pages rename to request_log_pages_away`.execute(server.database.db);
  const during = [await call(), await call(), await call()];
  await server.services.requestLogs.flush();
  assert.equal(
    status().dropped,
    { bufferFull: 0, writeFailed: 0, shutdown: 0 },
    'the first failure waits for its retry',
  );
  assert.is(status().buffered, 3);
  await server.services.requestLogs.flush();
  assert.equal(status().dropped, { bufferFull: 0, writeFailed: 3, shutdown: 0 });
  const ready = await server.client.get('/readyz');
  assert.is(ready.status, 200, 'a log that drops does not make the server unready');
  assert.equal(ready.body.requestLog.dropped, { bufferFull: 0, writeFailed: 3, shutdown: 0 });
  assertAccounted();

  await sql`alter table request_log_pages_away rename to request_log_pages`.execute(server.database.db);
  const after = [await call(), await call()];
  await server.services.requestLogs.flush();
  assert.is(await stored(after), 2);
  assert.is(await stored(during), 0);
  assertAccounted();
});

test('a batch written at its retry is redacted once: the same path and key fingerprint', async () => {
  recorded = accounted();
  const key = `key-${randomUUID()}`;
  const entry = capturedCall(a, { idempotencyKey: key, path: '/api/v1/charge/4111111111111111' });
  const service = server.services.requestLogs;
  await sql`alter table request_log_pages rename to request_log_pages_away`.execute(server.database.db);
  try {
    service.record(entry);
    recorded++;
    await service.flush();
    assert.is(status().buffered, 1, 'the first attempt failed: waiting for its retry');
  } finally {
    await sql`alter table request_log_pages_away rename to request_log_pages`.execute(server.database.db);
  }
  await service.flush();
  assert.is(status().buffered, 0);
  const detail = await service.get(a.companyId, entry.requestId);
  assert.is(detail.idempotencyKey, fingerprintOf(key), 'the key fingerprinted once, not its fingerprint again');
  assert.is(detail.path, '/api/v1/charge/************1111');
  assertAccounted();
});

postgresOnly('a database slower than the traffic: the buffer fills, the rest is dropped and counted', async () => {
  const url = process.env.DATABASE_URL!;
  const locker = new pg.Client({ connectionString: url, options: `-c search_path="${server.database.schema}"` });
  await locker.connect();
  const service = server.services.requestLogs;
  await service.flush();
  recorded = accounted();
  const droppedBefore = status().dropped.bufferFull;
  try {
    await locker.query('begin');
    await locker.query('lock table request_log_pages in access exclusive mode');
    // 50 fill a batch, whose write waits on the lock; 50 more fill the buffer; 10 are dropped
    for (let n = 0; n < 110; n++) service.record(capturedCall(a));
    recorded += 110;
    assert.is(status().dropped.bufferFull - droppedBefore, 10);
    // the server answers meanwhile, and says so
    await call();
    const ready = await server.client.get('/readyz');
    assert.is(ready.status, 200);
    assert.is(ready.body.requestLog.dropped.bufferFull, status().dropped.bufferFull);
    assert.ok(status().dropped.bufferFull - droppedBefore >= 11, 'the call made while full was dropped too');
  } finally {
    await locker.query('commit');
    await locker.end();
  }
  await service.flush();
  await service.flush();
  assertAccounted();
  assert.is(status().buffered, 0);
});

test.run();
