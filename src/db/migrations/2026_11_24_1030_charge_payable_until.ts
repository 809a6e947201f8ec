// When a charge stops being payable, stored with it: a cob at creation + expiracao, a cobv at
// the end (UTC) of its due date + validity. Reads, the payer's checks and the expiry job all
// compare this one column (src/charges/charge-model.ts computes it), where the rule used to be
// written in SQL twice and in TypeScript once.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('charges').addColumn('payable_until', 'timestamptz').execute();
  await sql`update charges set payable_until = case when kind = 'cob' then expires_at
    else ((due_date + coalesce(validity_after_due, 0) + 1)::timestamp at time zone 'UTC') end`.execute(db);
  await sql`alter table charges alter column payable_until set not null`.execute(db);
  // The expiry job's search: active charges not announced yet, by when they stop being payable.
  await sql`create index charges_expiring on charges (payable_until) where status = 'ATIVA' and expired_event_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('charges_expiring').execute();
  await db.schema.alterTable('charges').dropColumn('payable_until').execute();
}
