// The shared money foundation: balances and append-only ledger entries, the transactions a
// company sees, Pix keys (unique across the server) and the events outbox.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_balances')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('bank_accounts.id'))
    .addColumn('total', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`total >= 0`),
    )
    .addColumn('blocked', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`blocked >= 0`),
    )
    .addColumn('blocked_security', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`blocked_security >= 0`),
    )
    .addColumn('blocked_withdraw_safety', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`blocked_withdraw_safety >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'account_balances_available_not_negative',
      sql`total - blocked - blocked_security - blocked_withdraw_safety >= 0`,
    )
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('move_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('CREDIT', 'DEBIT', 'HOLD', 'RELEASE')`))
    .addColumn('bucket', 'text', (c) =>
      c.notNull().check(sql`bucket in ('available', 'blocked', 'security', 'withdraw_safety')`),
    )
    .addColumn('amount', 'int8', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('transaction_id', 'text')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_move').on('ledger_entries').columns(['account_id', 'move_id']).execute();
  await sql`create rule ledger_entries_no_update as on update to ledger_entries do instead nothing`.execute(db);
  await sql`create rule ledger_entries_no_delete as on delete to ledger_entries do instead nothing`.execute(db);

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value >= 0`))
    .addColumn('end_to_end_id', 'text')
    .addColumn('charge_id', 'text')
    .addColumn('payment_id', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_company_time')
    .on('transactions')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema.createIndex('transactions_e2e').on('transactions').column('end_to_end_id').execute();

  await db.schema
    .createTable('pix_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')`))
    .addColumn('is_default', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pix_keys_company').on('pix_keys').column('company_id').execute();
  await sql`create unique index pix_keys_one_default on pix_keys (company_id) where is_default`.execute(db);

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_company_time').on('events').columns(['company_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['events', 'pix_keys', 'transactions', 'ledger_entries', 'account_balances']) {
    await db.schema.dropTable(table).execute();
  }
}
