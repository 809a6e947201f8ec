// The sandbox clock becomes one per company: each company's expiries, due dates, refund
// windows, retries and recurrences read its own offset, moved only with its credentials.
// Companies start from the offset the one server-wide clock had, so nothing already due
// moves back.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('clock_offset_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update companies set clock_offset_ms = coalesce((select offset_ms from sandbox_clock where id = 1), 0)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').dropColumn('clock_offset_ms').execute();
}
