// Charges, continued: batches of due-date charges (lotecobv) and their items, the batch of a
// charge, and whether a location ever served a charge (its payload then answers 410, not 404).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('locations')
    .addColumn('linked_once', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('charges').addColumn('lote_id', 'int8').execute();

  await db.schema
    .createTable('cobv_batches')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('id', 'int8', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('cobv_batches_pk', ['company_id', 'id'])
    .execute();
  await db.schema
    .createIndex('cobv_batches_company_time')
    .on('cobv_batches')
    .columns(['company_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('cobv_batch_items')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('batch_id', 'int8', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('EM_PROCESSAMENTO', 'CRIADA', 'NEGADA')`))
    // The request of the item (the standard's CobVSolicitada) and, when NEGADA, the problem.
    .addColumn('request', 'jsonb', (c) => c.notNull())
    .addColumn('problem', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('cobv_batch_items_pk', ['company_id', 'batch_id', 'txid'])
    .addForeignKeyConstraint('cobv_batch_items_batch', ['company_id', 'batch_id'], 'cobv_batches', ['company_id', 'id'])
    .execute();
  await sql`create unique index cobv_batch_items_company_txid on cobv_batch_items (company_id, txid)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cobv_batch_items').execute();
  await db.schema.dropTable('cobv_batches').execute();
  await db.schema.alterTable('charges').dropColumn('lote_id').execute();
  await db.schema.alterTable('locations').dropColumn('linked_once').execute();
}
