// Table statistics for the embedded database. PGlite runs no autovacuum, so without this job
// the planner never learns a table's size or its columns' distributions and chooses indexes
// on guesses (a list or a join read all of a company's charges). This applies autovacuum's
// analyze rule: a table is analyzed once the rows changed since its last analysis exceed 50
// plus 10% of its rows, or when it has data and was never analyzed. Postgres proper has its
// own autovacuum: the job (a row of src/job-table.ts) runs on the embedded database only.
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema';

export const STATISTICS_JOB = 'db.statistics';

// Analyzes the tables that need it; their names. A session publishes its change counts at
// most once a second, so counts still pending at an ANALYZE would land after it and count as
// changes since it: the first statement makes the session publish them now.
export async function analyzeChangedTables(db: Kysely<Database>): Promise<string[]> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_stat_user_tables s on s.relid = c.oid
     where (c.reltuples < 0 and pg_relation_size(c.oid) > 0)
        or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
     order by c.relname`.execute(db);
  for (const { name } of rows) await sql`analyze ${sql.table(name)}`.execute(db);
  return rows.map((r) => r.name);
}
