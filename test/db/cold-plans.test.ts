// A new database's first plans: a session keeps a foreign-key check's plan, generic after five
// runs, until the next ANALYZE of the table. Made while the tables were a page (analyzed nearly
// empty, as autovacuum's first pass on a new database), the check of a charge's location
// scanned the whole locations table on every creation as the table grew. The creation
// statement has its checks planned for the table as it is (src/charges/charges.repository.ts).
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
});
test.after(async () => {
  await server.close();
});

const GROWN = 20_000;

interface Counts {
  inserted: number;
  scanned: number;
}

async function locationCounts(): Promise<Counts> {
  const { rows } = await sql<{ inserted: string; scanned: string }>`
    select n_tup_ins as inserted, seq_tup_read as scanned from pg_stat_user_tables
     where relid = 'locations'::regclass`.execute(server.database.db);
  return { inserted: Number(rows[0]!.inserted), scanned: Number(rows[0]!.scanned) };
}

// The counts once every insert up to `inserted` is published (a session publishes its counts
// at most once a second, an idle one within about ten).
async function countsOnce(inserted: number): Promise<Counts> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await sql`select pg_stat_force_next_flush()`.execute(server.database.db);
    const counts = await locationCounts();
    if (counts.inserted >= inserted) return counts;
    if (Date.now() > deadline) throw new Error(`location inserts not published: ${JSON.stringify(counts)}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

// The tables of this server's schema only: a bare ANALYZE takes the whole database, every other
// test file's schema included, and waits on their DDL (it once ran past the statement timeout).
async function analyzeOwnTables(): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select quote_ident(tablename) as name from pg_tables where schemaname = current_schema()`.execute(
    server.database.db,
  );
  assert.ok(
    rows.some((r) => r.name === 'locations'),
    'the schema holds the tables',
  );
  await sql.raw(`analyze ${rows.map((r) => r.name).join(', ')}`).execute(server.database.db);
}

async function createCharges(appID: string, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await server.client.post(
      '/api/v1/charge',
      { correlationID: `${prefix}-${i}`, value: 100 },
      { auth: appID },
    );
    assert.is(res.status, 200, res.text);
  }
}

test('a creation checks its location by key on a table grown since the checks were planned', async () => {
  const company = await createCompany(server.client);
  await createCharges(company.appID, 'first', 1);
  await analyzeOwnTables();
  // More than five runs on a session: a generic plan would be made now, for a one-page table.
  await createCharges(company.appID, 'early', 12);
  await sql`
    insert into locations (company_id, kind, token, created_at)
    select ${company.companyId}, 'cob', 'grown-' || n, now() from generate_series(1, ${GROWN}) n`.execute(
    server.database.db,
  );
  const before = await countsOnce(13 + GROWN);
  await createCharges(company.appID, 'late', 10);
  const after = await countsOnce(before.inserted + 10);
  const read = after.scanned - before.scanned;
  assert.ok(read < GROWN, `10 creations read ${read} locations rows sequentially: a check walked the table`);
});

test.run();
