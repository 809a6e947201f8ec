// All SQL of reading companies' bank accounts (with their company's names). Subaccounts
// (rows with a parent account, src/subaccounts) are not bank accounts of the company here.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

export type { AccountWithCompany } from '../identity/identity.repository';
import type { AccountWithCompany } from '../identity/identity.repository';

function accountsOf(db: Db, companyId: string) {
  return db
    .selectFrom('bank_accounts')
    .innerJoin('companies', 'companies.id', 'bank_accounts.company_id')
    .selectAll('bank_accounts')
    .select(['companies.tax_id', 'companies.official_name', 'companies.trade_name'])
    .where('bank_accounts.company_id', '=', companyId)
    .where('bank_accounts.parent_account_id', 'is', null);
}

export async function findAccountOfCompany(
  db: Db,
  companyId: string,
  accountId: string,
): Promise<AccountWithCompany | undefined> {
  return accountsOf(db, companyId).where('bank_accounts.id', '=', accountId).executeTakeFirst();
}

// Open accounts of the company, default first; `email` keeps those whose holder e-mail it is.
export async function listOpenAccountsOfCompany(
  db: Db,
  companyId: string,
  skip: number,
  limit: number,
  email?: string,
): Promise<{ rows: AccountWithCompany[]; total: number }> {
  let open = accountsOf(db, companyId).where('bank_accounts.status', '=', 'OPEN');
  let count = db
    .selectFrom('bank_accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('parent_account_id', 'is', null)
    .where('status', '=', 'OPEN');
  if (email !== undefined) {
    open = open.where(sql`lower(bank_accounts.holder_email)`, '=', email.toLowerCase());
    count = count.where(sql`lower(holder_email)`, '=', email.toLowerCase());
  }
  const rows = await open
    .orderBy('bank_accounts.is_default', 'desc')
    .orderBy('bank_accounts.created_at')
    .orderBy('bank_accounts.id')
    .offset(skip)
    .limit(limit)
    .execute();
  return { rows, total: Number((await count.executeTakeFirstOrThrow()).n) };
}

export async function accountNumberTaken(db: Db, accountNumber: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('bank_accounts')
      .select('id')
      .where('account_number', '=', accountNumber)
      .executeTakeFirst()) !== undefined
  );
}

export async function closeAccount(db: Db, accountId: string, at: Date): Promise<void> {
  await db
    .updateTable('bank_accounts')
    .set({ status: 'CLOSED', closed_at: at, is_default: false })
    .where('id', '=', accountId)
    .execute();
}

// The account row locked for closing (another close or a withdrawal waits).
export async function lockAccount(db: Db, accountId: string): Promise<void> {
  await db.selectFrom('bank_accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

export async function findDefaultOpenAccount(db: Db, companyId: string): Promise<AccountWithCompany | undefined> {
  return accountsOf(db, companyId)
    .where('bank_accounts.is_default', '=', true)
    .where('bank_accounts.status', '=', 'OPEN')
    .executeTakeFirst();
}

// The company of each of these accounts (bank accounts or subaccounts).
export async function findAccountCompanies(
  db: Db,
  accountIds: string[],
): Promise<Array<{ id: string; company_id: string }>> {
  if (accountIds.length === 0) return [];
  return db.selectFrom('bank_accounts').select(['id', 'company_id']).where('id', 'in', accountIds).execute();
}
