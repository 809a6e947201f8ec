// Boletos received and paid, for reconciliation (GET /api/v1/boleto-transaction): a BOLETO_IN
// when a payer paid a BOLETO charge by its barcode, a BOLETO_OUT when the company paid a
// boleto (a payment of type BOLETO), with the fine, interest and discount of a late or early
// payment and the fee.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('boleto_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('BOLETO_IN', 'BOLETO_OUT')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('CREATED', 'PROCESSING', 'PENDING', 'CONFIRMED', 'REJECTED')`),
    )
    .addColumn('value', 'int8', (c) => c.notNull().check(sql`value > 0`))
    .addColumn('fee', 'int8', (c) => c.notNull().defaultTo(0))
    .addColumn('fines_value', 'int8')
    .addColumn('interests_value', 'int8')
    .addColumn('discount_value', 'int8')
    // BOLETO_IN: the charge paid (one boleto payment per charge); BOLETO_OUT: the payment.
    .addColumn('charge_id', 'text', (c) => c.unique())
    .addColumn('payment_id', 'text', (c) => c.unique())
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('digitable_line', 'text', (c) => c.notNull())
    .addColumn('payer_name', 'text')
    .addColumn('payer_tax_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('boleto_transactions_company_time')
    .on('boleto_transactions')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('boleto_transactions').execute();
}
