// The embedded database's statistics job (src/db/statistics.job.ts): PGlite has no
// autovacuum, so the job analyzes the tables that changed enough, as autovacuum would.
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { STATISTICS_JOB } from '../../src/db/statistics.job';
import { createCompany } from '../support/fixtures';
import { postgresOnly, runsOnlyIf } from '../support/skip';
import { startTestServer, type TestServer } from '../support/server';

const embeddedOnly = runsOnlyIf(
  !process.env.DATABASE_URL,
  'the job runs on the embedded database only (Postgres has its own autovacuum)',
);
let server: TestServer;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
});
test.after(async () => {
  await server.close();
});

const analyzed = async (table: string) => {
  const { rows } = await sql<{
    tuples: number;
  }>`select reltuples::float8 as tuples from pg_class where relname = ${table}`.execute(server.database.db);
  return rows[0]!.tuples;
};

embeddedOnly('tables that changed are analyzed, then left alone until they change again', async () => {
  const company = await createCompany(server.client);
  for (let i = 0; i < 60; i++) {
    const res = await server.client.post(
      '/api/v1/charge',
      { correlationID: `stats-${i}`, value: 100 + i },
      {
        auth: company.appID,
      },
    );
    assert.is(res.status, 200, res.text);
  }
  // Publish the counts so far, then change every row just before the job runs: those changes
  // are still unpublished, as they are whenever a request wrote in the last second.
  await sql`select pg_stat_force_next_flush()`.execute(server.database.db);
  await sql`update charges set value = value where company_id = ${company.companyId}`.execute(server.database.db);
  await server.services.jobs.runNow(STATISTICS_JOB);
  assert.ok((await analyzed('charges')) >= 60, 'charges analyzed: the planner knows their number');
  const { rows } = await sql<{
    at: Date | null;
  }>`select last_analyze as at from pg_stat_user_tables where relname = 'charges'`.execute(server.database.db);
  const first = rows[0]!.at;
  assert.ok(first, 'charges has a last analysis');
  // Nothing changed: the next run leaves charges alone, once every count is published.
  await sql`select pg_stat_force_next_flush()`.execute(server.database.db);
  await server.services.jobs.runNow(STATISTICS_JOB);
  const again = await sql<{
    at: Date | null;
  }>`select last_analyze as at from pg_stat_user_tables where relname = 'charges'`.execute(server.database.db);
  assert.equal(again.rows[0]!.at, first);
});

postgresOnly('on Postgres the job is not registered: its own autovacuum analyzes', async () => {
  const refused = await server.services.jobs.runNow(STATISTICS_JOB).then(
    () => undefined,
    (error: Error) => error,
  );
  assert.match(String(refused?.message), /no job db\.statistics/);
});

test.run();
