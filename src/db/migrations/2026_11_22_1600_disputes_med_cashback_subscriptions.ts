// Disputes (raised by payers on received Pix), funds recoveries (MED) of sent Pix, exclusive
// (fidelity) cashbacks and subscriptions with the charges they generated.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('disputes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('transactions.id'))
    // One dispute per received Pix: it is addressed by this id.
    .addColumn('end_to_end_id', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CREATED', 'IN_REVIEW', 'ACCEPTED', 'REJECTED', 'CANCELED')`),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    // What was set aside in the security bucket when it opened (at most value).
    .addColumn('held', 'int8', (c) => c.notNull().check(sql`held >= 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('evidences', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('disputes_company_time').on('disputes').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('funds_recoveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    // No earlier recovery for the same transaction.
    .addColumn('transaction_id', 'text', (c) => c.notNull().unique().references('transactions.id'))
    .addColumn('end_to_end_id', 'text', (c) => c.notNull())
    .addColumn('situation_type', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CREATED', 'AWAITING_ANALYSIS', 'COMPLETED', 'CANCELLED')`),
    )
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('reporter_participant', 'text', (c) => c.notNull())
    .addColumn('events', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('funds_recoveries_company_e2e')
    .on('funds_recoveries')
    .columns(['company_id', 'end_to_end_id'])
    .execute();

  await db.schema
    .createTable('cashbacks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'USED')`))
    // The received Pix of the customer that used it.
    .addColumn('used_transaction_id', 'text', (c) => c.references('transactions.id'))
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index cashbacks_one_pending on cashbacks (company_id, tax_id) where status = 'PENDING'`.execute(
    db,
  );
  await db.schema
    .createIndex('cashbacks_company_tax_id')
    .on('cashbacks')
    .columns(['company_id', 'tax_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('global_id', 'text', (c) => c.notNull().unique())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('comment', 'text')
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('customer', 'jsonb', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('day_generate_charge', 'integer', (c) => c.notNull())
    .addColumn('day_due', 'integer', (c) => c.notNull())
    .addColumn('installment_count', 'integer')
    .addColumn('charges_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interests', 'jsonb')
    .addColumn('fines', 'jsonb')
    .addColumn('additional_info', 'jsonb')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('ACTIVE', 'COMPLETED', 'EXPIRED', 'CANCELED')`),
    )
    // When the next charge is due to be generated; null once no more are.
    .addColumn('next_charge_at', 'timestamptz')
    .addColumn('payment_link_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_company_correlation')
    .unique()
    .on('subscriptions')
    .columns(['company_id', 'correlation_id'])
    .execute();
  await sql`create index subscriptions_due on subscriptions (next_charge_at) where status = 'ACTIVE'`.execute(db);

  await db.schema
    .createTable('subscription_charges')
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id'))
    .addColumn('installment', 'integer', (c) => c.notNull())
    .addColumn('charge_correlation_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('subscription_charges_pk', ['subscription_id', 'installment'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['subscription_charges', 'subscriptions', 'cashbacks', 'funds_recoveries', 'disputes'])
    await db.schema.dropTable(t).execute();
}
