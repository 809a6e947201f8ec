// All SQL of the bank_accounts table that is not a join made to save a round trip: opening,
// reading (with the company's names), closing and locking accounts. Other areas call these
// functions by name. Subaccounts (rows with a parent account, src/subaccounts) are not bank
// accounts of the company in the readers that say so.
import { sql } from 'kysely';
import type { BankAccount, Db, NewBankAccount } from '../db/schema';
import { pagedRows } from '../db/paging';

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
  const list = open
    .orderBy('bank_accounts.is_default', 'desc')
    .orderBy('bank_accounts.created_at')
    .orderBy('bank_accounts.id');
  const countPastEnd = async () => Number((await count.executeTakeFirstOrThrow()).n);
  return pagedRows(list, { skip, limit }, { countPastEnd });
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

export async function insertBankAccount(db: Db, account: NewBankAccount): Promise<BankAccount> {
  return db.insertInto('bank_accounts').values(account).returningAll().executeTakeFirstOrThrow();
}

export async function findOpenAccountOfCompany(
  db: Db,
  companyId: string,
  accountId: string,
): Promise<BankAccount | undefined> {
  return db
    .selectFrom('bank_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', accountId)
    .where('status', '=', 'OPEN')
    .where('parent_account_id', 'is', null)
    .executeTakeFirst();
}

// A bank account with its company's names (what payments and views show of a holder).
export interface AccountWithCompany extends BankAccount {
  tax_id: string;
  official_name: string;
  trade_name: string;
}

export async function findAccountsOfCompany(db: Db, companyId: string): Promise<AccountWithCompany[]> {
  return accountsOf(db, companyId).orderBy('bank_accounts.created_at').orderBy('bank_accounts.id').execute();
}

// The company's open account with this number (and branch, when given).
export async function findCompanyAccount(
  db: Db,
  companyId: string,
  accountNumber: string,
  branch: string | undefined,
): Promise<BankAccount | undefined> {
  let q = db
    .selectFrom('bank_accounts')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('account_number', '=', accountNumber)
    .where('status', '=', 'OPEN');
  if (branch !== undefined) q = q.where('branch', '=', branch);
  return q.executeTakeFirst();
}

export interface AccountParty {
  company_id: string;
  company_name: string;
  company_tax_id: string;
  account_id: string;
  branch: string;
  account_number: string;
  status: 'OPEN' | 'CLOSED';
}

export async function findAccountParty(db: Db, accountId: string): Promise<AccountParty | undefined> {
  return db
    .selectFrom('bank_accounts')
    .innerJoin('companies', 'companies.id', 'bank_accounts.company_id')
    .select([
      'companies.id as company_id',
      'companies.name as company_name',
      'companies.tax_id as company_tax_id',
      'bank_accounts.id as account_id',
      'bank_accounts.branch',
      'bank_accounts.account_number',
      'bank_accounts.status',
    ])
    .where('bank_accounts.id', '=', accountId)
    .executeTakeFirst();
}

// E-mails of the company's account users (confirmed when their account was opened).
export async function accountUserEmails(db: Db, companyId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bank_accounts')
    .select(sql<string>`lower(holder_email)`.as('email'))
    .where('company_id', '=', companyId)
    .where('holder_email', 'is not', null)
    .execute();
  return rows.map((r) => r.email);
}

export async function defaultOpenAccount(db: Db, companyId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('bank_accounts')
    .select('id')
    .where('company_id', '=', companyId)
    .where('is_default', '=', true)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  return row?.id;
}

export interface LocalAccount {
  id: string;
  company_id: string;
  branch: string;
  account_number: string;
  tax_id: string;
  official_name: string;
  trade_name: string;
}

// An open account of this server by branch and number ("0001" and "1" are one branch; the
// number matches with or without separators, or without a trailing check digit after "-").
export async function findLocalAccount(db: Db, branch: string, account: string): Promise<LocalAccount | undefined> {
  const numbers = [
    ...new Set(
      [
        account.replace(/[^0-9]/g, ''),
        account.includes('-') ? account.split('-')[0]!.replace(/[^0-9]/g, '') : '',
      ].filter(Boolean),
    ),
  ];
  return db
    .selectFrom('bank_accounts')
    .innerJoin('companies', 'companies.id', 'bank_accounts.company_id')
    .select(['bank_accounts.id', 'bank_accounts.company_id', 'bank_accounts.branch', 'bank_accounts.account_number'])
    .select(['companies.tax_id', 'companies.official_name', 'companies.trade_name'])
    .where('bank_accounts.branch', '=', branch.padStart(4, '0'))
    .where('bank_accounts.account_number', 'in', numbers)
    .where('bank_accounts.status', '=', 'OPEN')
    .executeTakeFirst();
}
