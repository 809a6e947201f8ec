// Subscriptions may generate DYNAMIC charges (expiring after dayDue days) instead of OVERDUE
// ones (due dayDue days after generation); existing subscriptions keep OVERDUE. Their
// paymentLinkUrl opens the page of the charge to pay now: looked up by payment link id.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('charge_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('OVERDUE')
        .check(sql`charge_type in ('DYNAMIC', 'OVERDUE')`),
    )
    .execute();
  await db.schema
    .createIndex('subscriptions_payment_link')
    .unique()
    .on('subscriptions')
    .column('payment_link_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_payment_link').execute();
  await db.schema.alterTable('subscriptions').dropColumn('charge_type').execute();
}
