// One charge model behind both APIs: a platform charge of type DYNAMIC is a cob, OVERDUE a
// cobv; its txid is the standard's txid. Every revision of the standard's object is kept.
// Locations are the payload URLs (one charge at a time, the URL kept when unlinked).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('locations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('cob', 'cobv')`))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('charge_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('locations_company_time').on('locations').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('charges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('cob', 'cobv')`))
    .addColumn('platform_type', 'text', (c) =>
      c.notNull().check(sql`platform_type in ('DYNAMIC', 'OVERDUE', 'BOLETO')`),
    )
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('correlation_id', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP')`),
    )
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('pix_key', 'text', (c) => c.notNull())
    .addColumn('location_id', 'int8', (c) => c.unique().references('locations.id'))
    .addColumn('payment_link_id', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text')
    // The standard's object as of the current revision (calendario, devedor, recebedor,
    // valor, chave, solicitacaoPagador, infoAdicionais), without status/loc/revisao.
    .addColumn('body', 'jsonb', (c) => c.notNull())
    // Platform-only options (comment, additionalInfo, ensureSameTaxID, fixedLocation,
    // paymentLinkID, interests/fines/discount as sent, split, subaccount, cashback flags...).
    .addColumn('platform', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    // cob: creation + expiracao; cobv: null (due_date and validity decide).
    .addColumn('expires_at', 'timestamptz')
    .addColumn('due_date', 'date')
    .addColumn('validity_after_due', 'integer')
    .addColumn('paid_at', 'timestamptz')
    // Set once when the expiry event was recorded (CHARGE_EXPIRED is sent once).
    .addColumn('expired_event_at', 'timestamptz')
    .execute();
  await sql`create unique index charges_company_txid on charges (company_id, txid)`.execute(db);
  await sql`create unique index charges_company_correlation on charges (company_id, correlation_id) where correlation_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('charges_company_time').on('charges').columns(['company_id', 'created_at']).execute();
  await sql`create index charges_expiry_pending on charges (expires_at) where status = 'ATIVA' and expired_event_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('charge_revisions')
    .addColumn('charge_id', 'text', (c) => c.notNull().references('charges.id'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('charge_revisions_pk', ['charge_id', 'revision'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['charge_revisions', 'charges', 'locations']) await db.schema.dropTable(table).execute();
}
