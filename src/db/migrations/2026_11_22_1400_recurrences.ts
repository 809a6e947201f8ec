// Pix Automático (the recurrence family of the standard): recurrence payload locations
// (locrec), recurrences (rec), their confirmation requests (solicrec) and recurring charges
// (cobr) with their settlement attempts. The standard's objects are kept as jsonb; the
// columns are what the rules and lists filter on.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rec_locations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('id_rec', 'text', (c) => c.unique())
    .addColumn('linked_once', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rec_locations_company_time')
    .on('rec_locations')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('recurrences')
    .addColumn('id_rec', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA')`),
    )
    .addColumn('journey', 'text', (c) => c.notNull())
    .addColumn('location_id', 'int8', (c) => c.unique().references('rec_locations.id'))
    .addColumn('convenio', 'text')
    .addColumn('debtor_tax_id', 'text', (c) => c.notNull())
    // vinculo, calendario, valor, recebedor, politicaRetentativa, ativacao.dadosJornada
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('history', 'jsonb', (c) => c.notNull())
    .addColumn('pagador', 'jsonb')
    .addColumn('encerramento', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recurrences_company_time')
    .on('recurrences')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('rec_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('id_rec', 'text', (c) => c.notNull().references('recurrences.id_rec'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('CRIADA', 'ENVIADA', 'RECEBIDA', 'REJEITADA', 'ACEITA', 'EXPIRADA', 'CANCELADA')`),
    )
    // calendario, destinatario
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('history', 'jsonb', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rec_requests_rec').on('rec_requests').columns(['id_rec']).execute();

  await db.schema
    .createTable('recurring_charges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('id_rec', 'text', (c) => c.notNull().references('recurrences.id_rec'))
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA')`),
    )
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('cycle', 'integer', (c) => c.notNull())
    .addColumn('due_date', 'date', (c) => c.notNull())
    // The expected date of the first settlement attempt (due date, moved to a business day).
    .addColumn('settlement_date', 'date', (c) => c.notNull())
    // The date of the attempt waiting to be settled (SOLICITADA or AGENDADA), if any.
    .addColumn('next_attempt_date', 'date')
    // infoAdicional, calendario, valor, ajusteDiaUtil, recebedor, devedor
    .addColumn('body', 'jsonb', (c) => c.notNull())
    .addColumn('history', 'jsonb', (c) => c.notNull())
    .addColumn('attempts', 'jsonb', (c) => c.notNull())
    .addColumn('encerramento', 'jsonb')
    .addColumn('pix', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await sql`create unique index recurring_charges_company_txid on recurring_charges (company_id, txid)`.execute(db);
  await db.schema
    .createIndex('recurring_charges_company_time')
    .on('recurring_charges')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema.createIndex('recurring_charges_rec').on('recurring_charges').columns(['id_rec', 'cycle']).execute();
  await sql`create index recurring_charges_due on recurring_charges (next_attempt_date) where status = 'ATIVA'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['recurring_charges', 'rec_requests', 'recurrences', 'rec_locations'])
    await db.schema.dropTable(table).execute();
}
