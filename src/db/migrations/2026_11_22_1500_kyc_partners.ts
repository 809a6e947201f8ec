// KYC onboardings of merchants, their representatives (administrators), the one-time codes
// that confirm a representative's e-mail or phone, and the partners' pre-registrations with
// the applications made for them.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kyc_onboardings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('official_name', 'text', (c) => c.notNull())
    .addColumn('trade_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('PENDING', 'SUBMITTED', 'APPROVED', 'REJECTED')`),
    )
    .addColumn('link_token', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index kyc_onboardings_correlation on kyc_onboardings (company_id, correlation_id)`.execute(
    db,
  );
  await sql`create unique index kyc_onboardings_tax_id on kyc_onboardings (company_id, tax_id)`.execute(db);

  await db.schema
    .createTable('kyc_representatives')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('onboarding_id', 'text', (c) => c.notNull().references('kyc_onboardings.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    // The administrators the Pix authentication requires (when any is marked, only those).
    .addColumn('target_administrator', 'boolean', (c) => c.notNull())
    // Insertion order (representatives created together share created_at).
    .addColumn('seq', 'serial', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index kyc_representatives_tax_id on kyc_representatives (onboarding_id, tax_id)`.execute(db);
  await db.schema
    .createIndex('kyc_representatives_order')
    .on('kyc_representatives')
    .columns(['onboarding_id', 'seq'])
    .execute();

  // One row per representative and channel: the lock of its sends and checks, the address it
  // confirmed (verified while it equals the current one) and the wrong-code block.
  await db.schema
    .createTable('kyc_code_channels')
    .addColumn('representative_id', 'text', (c) => c.notNull().references('kyc_representatives.id'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('EMAIL', 'PHONE')`))
    .addColumn('verified_address', 'text')
    .addColumn('wrong_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_wrong_at', 'timestamptz')
    .addColumn('blocked_until', 'timestamptz')
    .addPrimaryKeyConstraint('kyc_code_channels_pk', ['representative_id', 'channel'])
    .execute();

  // Every code sent (the sends are also what the limits count). Only a salted hash of the code
  // is kept; sandbox_code holds the plain code in sandbox mode only (the sandbox read-out).
  await db.schema
    .createTable('kyc_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('representative_id', 'text', (c) => c.notNull().references('kyc_representatives.id'))
    .addColumn('onboarding_id', 'text', (c) => c.notNull().references('kyc_onboardings.id'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('EMAIL', 'PHONE')`))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('code_salt', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('sandbox_code', 'text')
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('kyc_codes_representative')
    .on('kyc_codes')
    .columns(['representative_id', 'channel', 'sent_at'])
    .execute();
  await db.schema.createIndex('kyc_codes_onboarding').on('kyc_codes').columns(['onboarding_id', 'sent_at']).execute();
  await db.schema.createIndex('kyc_codes_address').on('kyc_codes').columns(['channel', 'address', 'sent_at']).execute();

  await db.schema
    .createTable('partner_pre_registrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('partner_company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('tax_id', 'text', (c) => c.notNull())
    .addColumn('tax_id_type', 'text', (c) => c.notNull().check(sql`tax_id_type in ('BR:CPF', 'BR:CNPJ')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    .addColumn('user', 'jsonb', (c) => c.notNull())
    // The company made from the pre-registration (with its first application): the affiliate.
    .addColumn('company_id', 'text', (c) => c.references('companies.id'))
    .addColumn('affiliated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index partner_pre_registrations_tax_id on partner_pre_registrations (partner_company_id, tax_id)`.execute(
    db,
  );
  await db.schema
    .createIndex('partner_pre_registrations_order')
    .on('partner_pre_registrations')
    .columns(['partner_company_id', 'created_at', 'id'])
    .execute();

  // Applications a partner made for an affiliate: the requested type (API, PLUGIN, ORACLE;
  // the credential itself is an API application) and the name it is idempotent by.
  await db.schema
    .createTable('partner_applications')
    .addColumn('application_id', 'text', (c) => c.primaryKey().references('applications.id'))
    .addColumn('pre_registration_id', 'text', (c) => c.notNull().references('partner_pre_registrations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('API', 'PLUGIN', 'ORACLE')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index partner_applications_name on partner_applications (pre_registration_id, name)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'partner_applications',
    'partner_pre_registrations',
    'kyc_codes',
    'kyc_code_channels',
    'kyc_representatives',
    'kyc_onboardings',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
