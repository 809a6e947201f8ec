// Companies, their bank accounts and API applications; the sandbox clock; signing keys.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('official_name', 'text', (c) => c.notNull())
    .addColumn('trade_name', 'text', (c) => c.notNull())
    .addColumn('features', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('is_default', 'boolean', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('account_number', 'text', (c) => c.notNull().unique())
    .addColumn('account_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('OPEN', 'CLOSED')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('closed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('bank_accounts_company').on('bank_accounts').column('company_id').execute();
  await sql`create unique index bank_accounts_one_default on bank_accounts (company_id) where is_default and status = 'OPEN'`.execute(
    db,
  );

  await db.schema
    .createTable('applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('API', 'MASTER')`))
    .addColumn('is_active', 'boolean', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('client_secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'jsonb')
    .addColumn('allowed_ips', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('removed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('applications_company').on('applications').column('company_id').execute();

  await db.schema
    .createTable('sandbox_clock')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('offset_ms', 'int8', (c) => c.notNull())
    .execute();
  await sql`insert into sandbox_clock (id, offset_ms) values (1, 0)`.execute(db);

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'jsonb')
    .addColumn('certificate', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('retired_at', 'timestamptz')
    .execute();
  await sql`create unique index signing_keys_one_active on signing_keys (purpose) where retired_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['signing_keys', 'sandbox_clock', 'applications', 'bank_accounts', 'companies']) {
    await db.schema.dropTable(table).execute();
  }
}
