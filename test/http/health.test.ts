// /healthz is liveness (the process answers, whatever the database does); /readyz answers 200
// while the database answers and 503 once it does not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropSchema } from '../../src/db/database';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test('both probes answer 200 while the database answers, and are not cached', async () => {
  const live = await server.client.get('/healthz');
  assert.is(live.status, 200);
  assert.equal(live.body, { status: 'ok' });
  const ready = await server.client.get('/readyz');
  assert.is(ready.status, 200);
  assert.equal(ready.body, {
    status: 'ready',
    database: 'ok',
    requestLog: {
      enabled: true,
      buffered: 0,
      written: 0,
      dropped: { bufferFull: 0, writeFailed: 0, shutdown: 0 },
    },
  });
  assert.is(ready.headers.get('cache-control'), 'no-store');
  assert.is(ready.headers.get('x-db-statements'), '1', 'readiness sends one statement');
  assert.is(live.headers.get('x-db-statements'), '0', 'liveness sends none');
});

test('with the database gone, /readyz answers 503 and /healthz still 200', async () => {
  await server.database.close();
  const ready = await server.client.get('/readyz');
  assert.is(ready.status, 503);
  assert.is(ready.body.status, 'unavailable');
  assert.is(ready.body.database, 'unavailable');
  assert.is(ready.body.requestLog.enabled, true);
  const live = await server.client.get('/healthz');
  assert.is(live.status, 200);
});

// The database is closed: the server's own close (and its ledger audit) fails after closing
// the HTTP side; on Postgres the file's schema is dropped here instead.
test.after(async () => {
  await server.close().catch(() => undefined);
  if (process.env.DATABASE_URL) await dropSchema(process.env.DATABASE_URL, server.database.schema!);
});

test.run();
