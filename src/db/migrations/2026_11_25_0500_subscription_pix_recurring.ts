// Pix Automatico behind subscriptions: a PIX_RECURRING subscription keeps the recurrence (rec)
// it created and its options; each installment gets a global id of its own (the installment
// operations address it), the value it was generated with (the subscription's value may
// change later), the date it was scheduled for, and, for PIX_RECURRING, the recurring charge
// (cobr) of its cycle instead of a platform charge.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('id_rec', 'text').addColumn('pix_recurring', 'jsonb').execute();
  await sql`create unique index subscriptions_id_rec on subscriptions (id_rec) where id_rec is not null`.execute(db);

  await db.schema
    .alterTable('subscription_charges')
    .addColumn('global_id', 'text')
    .addColumn('value', 'int8')
    .addColumn('scheduled_at', 'timestamptz')
    .addColumn('cobr_txid', 'text')
    .execute();
  // Existing installments: an opaque id derived from their key, the subscription's value, the
  // moment they were generated.
  await sql`update subscription_charges c set
      global_id = translate(encode(convert_to('PaymentSubscriptionInstallment:'
        || substr(md5(c.subscription_id || ':' || c.installment), 1, 24), 'UTF8'), 'base64'), E'\n', ''),
      value = s.value,
      scheduled_at = c.created_at
    from subscriptions s where s.id = c.subscription_id`.execute(db);
  await sql`alter table subscription_charges
      alter column global_id set not null,
      alter column value set not null,
      alter column scheduled_at set not null,
      alter column charge_correlation_id drop not null,
      add constraint subscription_charges_value check (value > 0)`.execute(db);
  await sql`create unique index subscription_charges_global_id on subscription_charges (global_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscription_charges_global_id').execute();
  await sql`alter table subscription_charges drop constraint subscription_charges_value`.execute(db);
  for (const column of ['cobr_txid', 'scheduled_at', 'value', 'global_id'])
    await db.schema.alterTable('subscription_charges').dropColumn(column).execute();
  await db.schema.dropIndex('subscriptions_id_rec').execute();
  await db.schema.alterTable('subscriptions').dropColumn('pix_recurring').dropColumn('id_rec').execute();
}
