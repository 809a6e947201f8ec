// How many charges each company made per day (UTC) and kind, for the days its clock has left
// behind: charges are never deleted and a day that ended gets no new ones, so these counts are
// exact forever. A list of charges counts its period from them (and counts only the days not
// rolled up yet), and finds the page a deep skip lands on without reading the rows before it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('charge_day_counts')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('cob', 'cobv')`))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('n', 'int8', (c) => c.notNull().check(sql`n > 0`))
    .addPrimaryKeyConstraint('charge_day_counts_pk', ['company_id', 'day', 'kind'])
    .execute();
  // The last day rolled up per company (every day up to it is in charge_day_counts).
  await db.schema
    .createTable('charge_count_marks')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('rolled_through', 'date', (c) => c.notNull())
    .execute();
  // Lists read charges in (created_at, id) order: an index in that order lets a page stop
  // after its rows instead of sorting the period. It serves what (company_id, created_at) did.
  await db.schema
    .createIndex('charges_company_time_id')
    .on('charges')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('charges_company_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('charges_company_time').on('charges').columns(['company_id', 'created_at']).execute();
  await db.schema.dropIndex('charges_company_time_id').execute();
  await db.schema.dropTable('charge_count_marks').execute();
  await db.schema.dropTable('charge_day_counts').execute();
}
