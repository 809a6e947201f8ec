// The SQL that reads subaccounts: bank_accounts rows with a parent account (written through
// the identity and accounts repositories), each with its one Pix key (written through the
// keys repository) and its balance row.
import { sql } from 'kysely';
import type { AccountBalance, Db } from '../db/schema';
import { pagedRows } from '../db/paging';

export interface SubAccountRow {
  account_id: string;
  company_id: string;
  parent_account_id: string;
  name: string;
  pix_key: string;
  created_at: Date;
  balance: Pick<AccountBalance, 'total' | 'blocked' | 'blocked_security' | 'blocked_withdraw_safety'> | undefined;
}

interface RawRow {
  account_id: string;
  company_id: string;
  parent_account_id: string;
  name: string;
  pix_key: string;
  created_at: Date;
  total: number | string | null;
  blocked: number | string | null;
  blocked_security: number | string | null;
  blocked_withdraw_safety: number | string | null;
}

function subAccountsOf(db: Db, companyId: string) {
  return db
    .selectFrom('bank_accounts as a')
    .innerJoin('pix_keys as k', 'k.account_id', 'a.id')
    .leftJoin('account_balances as b', 'b.account_id', 'a.id')
    .select([
      'a.id as account_id',
      'a.company_id',
      sql<string>`a.parent_account_id`.as('parent_account_id'),
      'a.account_name as name',
      'k.key as pix_key',
      'a.created_at',
      'b.total',
      'b.blocked',
      'b.blocked_security',
      'b.blocked_withdraw_safety',
    ])
    .where('a.company_id', '=', companyId)
    .where('a.parent_account_id', 'is not', null)
    .where('a.status', '=', 'OPEN');
}

function rowOf(r: RawRow): SubAccountRow {
  const { total, blocked, blocked_security, blocked_withdraw_safety, ...rest } = r;
  return {
    ...rest,
    balance:
      total === null
        ? undefined
        : {
            total: Number(total),
            blocked: Number(blocked),
            blocked_security: Number(blocked_security),
            blocked_withdraw_safety: Number(blocked_withdraw_safety),
          },
  };
}

// The open subaccount of the company that this key reaches (another company's is not found).
export async function findSubAccountByKey(db: Db, companyId: string, key: string): Promise<SubAccountRow | undefined> {
  const row = await subAccountsOf(db, companyId).where('k.key', '=', key).executeTakeFirst();
  return row ? rowOf(row) : undefined;
}

// Several subaccounts of the company by their keys (one statement).
export async function findSubAccountsByKeys(db: Db, companyId: string, keys: string[]): Promise<SubAccountRow[]> {
  if (keys.length === 0) return [];
  return (await subAccountsOf(db, companyId).where('k.key', 'in', keys).execute()).map(rowOf);
}

// Oldest first, with the count of all of them.
export async function listSubAccounts(
  db: Db,
  companyId: string,
  skip: number,
  limit: number,
): Promise<{ rows: SubAccountRow[]; total: number }> {
  const list = subAccountsOf(db, companyId).orderBy('a.created_at').orderBy('a.id');
  const { rows, total } = await pagedRows(
    list,
    { skip, limit },
    { countPastEnd: () => countSubAccounts(db, companyId) },
  );
  return { rows: rows.map(rowOf), total };
}

async function countSubAccounts(db: Db, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('bank_accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where('parent_account_id', 'is not', null)
    .where('status', '=', 'OPEN')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
