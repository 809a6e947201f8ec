// Subaccounts: ledger accounts of a company beside its bank accounts, each reached by one Pix
// key. A subaccount is a bank_accounts row (so balances, entries, transactions and keys refer
// to it like to any account) whose parent_account_id names the company account it belongs
// to; company accounts have none. Its number holds no digits, so no payment addressed by
// branch and account finds it. The statement reads an account's entries in order: the index
// on (account_id, id) serves it.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bank_accounts')
    .addColumn('parent_account_id', 'text', (c) => c.references('bank_accounts.id'))
    .execute();
  await sql`create index bank_accounts_subaccounts on bank_accounts (company_id, created_at)
    where parent_account_id is not null and status = 'OPEN'`.execute(db);
  await db.schema
    .createIndex('ledger_entries_account_order')
    .on('ledger_entries')
    .columns(['account_id', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_account_order').execute();
  await db.schema.dropIndex('bank_accounts_subaccounts').execute();
  await db.schema.alterTable('bank_accounts').dropColumn('parent_account_id').execute();
}
