// Two server processes on one Postgres: a stream opened on one gets every event written
// through either, once each, though their transactions commit out of order (created_at order
// is not commit order; the stream reads in commit order). Runs only on Postgres (DATABASE_URL).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';
import { openStream } from './cli';

const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let company: TestCompany;

test.before(async () => {
  if (!onPostgres) return;
  a = await startTestServer({}, { backgroundJobs: false });
  b = await startTestServer({}, { schema: a.database.schema!, backgroundJobs: false });
  company = await createCompany(a.client);
});
test.after(async () => {
  if (!onPostgres) return;
  await b.close();
  await a.close();
});

postgresOnly('a stream on one process gets the events of both, each once, none skipped', async () => {
  const stream = await openStream(`${b.url}/api/v1/events/stream?type=OPENPIX:CHARGE_CREATED`, {
    authorization: company.appID,
  });
  assert.is(stream.status, 200, stream.text);
  await stream.next('pixgate.ready');
  const ids = Array.from({ length: 30 }, (_, n) => `duas-${n}`);
  const made = await Promise.all(
    ids.map((correlationID, n) =>
      (n % 2 ? a : b).client.post('/api/v1/charge', { correlationID, value: 100 + n }, { auth: company.appID }),
    ),
  );
  for (const res of made) assert.is(res.status, 200, res.text);
  const seen: string[] = [];
  while (seen.length < ids.length) {
    const body = JSON.parse(JSON.parse((await stream.next('pixgate.event')).data).body);
    seen.push(body.charge.correlationID);
  }
  stream.close();
  assert.equal([...seen].sort(), [...ids].sort());
});

test.run();
