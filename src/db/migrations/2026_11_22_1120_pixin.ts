// Money in: every Pix received by a company of this server (one row per end-to-end id, the
// idempotency key of a settlement) and the devolutions sent back to payers, keyed by the
// Pix and the client's devolution id.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pix_received')
    .addColumn('end_to_end_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('charge_id', 'text')
    .addColumn('txid', 'text')
    .addColumn('pix_key', 'text', (c) => c.notNull())
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    // Pix Saque / Pix Troco: the withdrawal part (refundable with natureza RETIRADA).
    .addColumn('withdrawal_kind', 'text', (c) => c.check(sql`withdrawal_kind in ('SAQUE', 'TROCO')`))
    .addColumn('withdrawal_value', 'int8', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`withdrawal_value >= 0 and withdrawal_value <= value`),
    )
    // componentesValor in the standard's format (decimal strings), when the Pix has parts.
    .addColumn('components', 'jsonb')
    .addColumn('payer_name', 'text', (c) => c.notNull())
    .addColumn('payer_tax_id', 'text', (c) => c.notNull())
    .addColumn('payer_ispb', 'text', (c) => c.notNull())
    .addColumn('payer_company_id', 'text')
    .addColumn('payer_account_id', 'text')
    .addColumn('info_pagador', 'text')
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pix_received_company_time')
    .on('pix_received')
    .columns(['company_id', 'settled_at'])
    .execute();
  await db.schema.createIndex('pix_received_company_txid').on('pix_received').columns(['company_id', 'txid']).execute();
  await db.schema.createIndex('pix_received_charge').on('pix_received').column('charge_id').execute();

  await db.schema
    .createTable('pix_devolutions')
    .addColumn('end_to_end_id', 'text', (c) => c.notNull().references('pix_received.end_to_end_id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('charge_id', 'text')
    .addColumn('rtr_id', 'text', (c) => c.notNull().unique())
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('natureza', 'text', (c) => c.notNull().check(sql`natureza in ('ORIGINAL', 'RETIRADA')`))
    .addColumn('descricao', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO')`),
    )
    .addColumn('motivo', 'text')
    // Set by the platform API (POST /api/v1/charge/{id}/refund); unique per company.
    .addColumn('correlation_id', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz')
    .addPrimaryKeyConstraint('pix_devolutions_pk', ['end_to_end_id', 'id'])
    .execute();
  await sql`create unique index pix_devolutions_company_correlation on pix_devolutions (company_id, correlation_id) where correlation_id is not null`.execute(
    db,
  );
  await db.schema
    .createIndex('pix_devolutions_charge')
    .on('pix_devolutions')
    .columns(['charge_id', 'requested_at'])
    .execute();
  await sql`create index pix_devolutions_pending on pix_devolutions (requested_at) where status = 'EM_PROCESSAMENTO'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['pix_devolutions', 'pix_received']) await db.schema.dropTable(table).execute();
}
