// The catalog: customers and static QR codes of each company.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('customers_company_correlation')
    .unique()
    .on('customers')
    .columns(['company_id', 'correlation_id'])
    .execute();
  await sql`create unique index customers_company_tax_id on customers (company_id, tax_id) where tax_id is not null`.execute(
    db,
  );
  await sql`create index customers_company_email on customers (company_id, lower(email)) where email is not null`.execute(
    db,
  );
  await sql`create index customers_company_phone on customers (company_id, phone) where phone is not null`.execute(db);
  await db.schema.createIndex('customers_company_time').on('customers').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('static_qrcodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'int8', (c) => c.check(sql`value > 0`))
    .addColumn('comment', 'text')
    .addColumn('pix_key', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('payment_link_id', 'text', (c) => c.notNull().unique())
    .addColumn('br_code', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create unique index static_qrcodes_company_correlation on static_qrcodes (company_id, correlation_id) where deleted_at is null`.execute(
    db,
  );
  await sql`create unique index static_qrcodes_identifier on static_qrcodes (pix_key, identifier) where deleted_at is null`.execute(
    db,
  );
  await sql`create index static_qrcodes_company_identifier on static_qrcodes (company_id, identifier)`.execute(db);
  await db.schema
    .createIndex('static_qrcodes_company_time')
    .on('static_qrcodes')
    .columns(['company_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('static_qrcodes').execute();
  await db.schema.dropTable('customers').execute();
}
