// Money out: outgoing payments, account limits, account registers, the key-lookup token
// bucket and its log (each lookup is a log row: its end-to-end id is reused by a payment),
// idempotency records of platform POSTs, and the account holder's e-mail (account filter).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bank_accounts').addColumn('holder_email', 'text').execute();
  await sql`create index bank_accounts_holder_email on bank_accounts (company_id, lower(holder_email))`.execute(db);

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('PIX_KEY', 'QR_CODE', 'MANUAL', 'BOLETO')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CREATED', 'APPROVED', 'CONFIRMED', 'FAILED', 'DENIED')`),
    )
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    // sha256 of the canonical create body: the same correlationID with another body is refused.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // What the caller sent that the payment view echoes (alias, qrCode, barcode, holder, psp, account).
    .addColumn('request', 'jsonb', (c) => c.notNull())
    // The resolved destination (owner, institution, account; local company/account when on this server).
    .addColumn('destination', 'jsonb', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('metadata', 'jsonb')
    .addColumn('end_to_end_id', 'text', (c) => c.unique())
    .addColumn('transaction_id', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await sql`create unique index payments_company_correlation on payments (company_id, correlation_id)`.execute(db);
  await db.schema.createIndex('payments_company_time').on('payments').columns(['company_id', 'created_at']).execute();
  await sql`create index payments_waiting on payments (created_at) where status = 'CREATED'`.execute(db);

  await db.schema
    .createTable('account_limits')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('bank_accounts.id'))
    .addColumn('daytime_per_transaction', 'int8', (c) => c.notNull())
    .addColumn('daytime_daily', 'int8', (c) => c.notNull())
    .addColumn('nighttime_per_transaction', 'int8', (c) => c.notNull())
    .addColumn('nighttime_daily', 'int8', (c) => c.notNull())
    .addColumn('monthly', 'int8', (c) => c.notNull())
    .addColumn('min_free_withdraw_value', 'int8', (c) => c.notNull())
    .addColumn('withdraw_fee', 'int8', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('account_registers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('official_name', 'text', (c) => c.notNull())
    .addColumn('trade_name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('tax_id_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create unique index account_registers_company_correlation on account_registers (company_id, correlation_id) where deleted_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('pix_key_buckets')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('tokens', 'integer', (c) => c.notNull().check(sql`tokens >= 0`))
    .addColumn('max_tokens', 'integer', (c) => c.notNull().check(sql`max_tokens > 0`))
    .addColumn('refill_rate', 'integer', (c) => c.notNull().check(sql`refill_rate > 0`))
    // The last refill tick: refills are computed from it (whole minutes since), never by a timer.
    .addColumn('refilled_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('pix_key_buckets_not_over_max', sql`tokens <= max_tokens`)
    .execute();

  await db.schema
    .createTable('pix_key_token_logs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('operation', 'text', (c) => c.notNull().check(sql`operation in ('ADD', 'REMOVE')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('tokens', 'integer', (c) => c.notNull())
    .addColumn('tokens_before', 'integer', (c) => c.notNull())
    .addColumn('tokens_after', 'integer', (c) => c.notNull())
    // Lookups only: the key, whether it was found, the owner answered and the end-to-end id.
    .addColumn('pix_key', 'text')
    .addColumn('found', 'boolean')
    .addColumn('result', 'jsonb')
    .addColumn('end_to_end_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pix_key_token_logs_company')
    .on('pix_key_token_logs')
    .columns(['company_id', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('RUNNING', 'DONE')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_type', 'text')
    .addColumn('response_headers', 'jsonb')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // A RUNNING record past this time belongs to a request that died: it may be taken over.
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['company_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry').on('idempotency_records').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'idempotency_records',
    'pix_key_token_logs',
    'pix_key_buckets',
    'account_registers',
    'account_limits',
    'payments',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('bank_accounts').dropColumn('holder_email').execute();
}
