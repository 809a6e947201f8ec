// One call announces a change (src/db/announced-writes.ts): the message goes out in the
// transaction, is delivered here only once it committed, and a transaction not opened by the
// helper is refused, so the local half cannot be left out.
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AnnouncedWrites } from '../../src/db/announced-writes';
import type { ChangeFeed } from '../../src/db/change-feed';
import type { Database } from '../../src/db/schema';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
});
test.after(async () => {
  await server.close();
});

function recordingFeed(log: string[]): ChangeFeed {
  let sent = 0;
  return {
    channel: 'announced_writes_test',
    origin: 'test',
    live: true,
    subscribe: () => undefined,
    deliverLocally: (payload) => void log.push(`deliver ${payload}`),
    settled: () => undefined,
    stamp: () => `test:${++sent}`,
    propagated: async () => void log.push('propagated'),
    close: async () => undefined,
  };
}

test('a change is delivered here after its transaction committed, then propagated', async () => {
  const log: string[] = [];
  const writes = new AnnouncedWrites<Database>(recordingFeed(log));
  const answer = await writes.transaction(server.database.db, async (trx) => {
    await writes.afterWrite(trx, 'keys:c1');
    await sql`select 1`.execute(trx);
    log.push('work done');
    return 'answer';
  });
  assert.is(answer, 'answer');
  assert.equal(log, ['work done', 'deliver keys:c1', 'propagated']);
});

test('a transaction that fails delivers nothing', async () => {
  const log: string[] = [];
  const writes = new AnnouncedWrites<Database>(recordingFeed(log));
  const failed = await writes
    .transaction(server.database.db, async (trx) => {
      await writes.afterWrite(trx, 'keys:c1');
      throw new Error('refused');
    })
    .catch((error: Error) => error.message);
  assert.is(failed, 'refused');
  assert.equal(log, []);
});

test('a transaction not opened by the helper is refused', async () => {
  const log: string[] = [];
  const writes = new AnnouncedWrites<Database>(recordingFeed(log));
  const refused = await server.database.db
    .transaction()
    .execute((trx) => writes.afterWrite(trx, 'keys:c1'))
    .then(
      () => undefined,
      (error: Error) => error.message,
    );
  assert.match(refused ?? '', /afterWrite needs a transaction opened by/);
  assert.equal(log, []);
});

test.run();
