// All SQL of balances and ledger entries.
import type { Kysely } from 'kysely';
import type { AccountBalance, Database, LedgerBucket, LedgerEntryKind } from '../db/schema';

type Db = Kysely<Database>;

// Locks the balance rows of these accounts (creating missing ones), in id order so that two
// moves over the same accounts never deadlock.
export async function lockBalances(db: Db, accountIds: string[], at: Date): Promise<Map<string, AccountBalance>> {
  const ids = [...new Set(accountIds)].sort();
  await db
    .insertInto('account_balances')
    .values(ids.map((account_id) => ({ account_id, updated_at: at })))
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  const rows = await db
    .selectFrom('account_balances')
    .selectAll()
    .where('account_id', 'in', ids)
    .orderBy('account_id')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.account_id, r]));
}

export async function moveAlreadyApplied(db: Db, accountIds: string[], moveId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('account_id', 'in', [...new Set(accountIds)])
    .where('move_id', '=', moveId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEntries(
  db: Db,
  entries: Array<{
    account_id: string;
    move_id: string;
    kind: LedgerEntryKind;
    bucket: LedgerBucket;
    amount: number;
    transaction_id: string | null;
    description: string | null;
    created_at: Date;
  }>,
): Promise<void> {
  await db.insertInto('ledger_entries').values(entries).execute();
}

export async function saveBalance(db: Db, balance: AccountBalance): Promise<void> {
  await db
    .updateTable('account_balances')
    .set({
      total: balance.total,
      blocked: balance.blocked,
      blocked_security: balance.blocked_security,
      blocked_withdraw_safety: balance.blocked_withdraw_safety,
      updated_at: balance.updated_at,
    })
    .where('account_id', '=', balance.account_id)
    .execute();
}

export async function findBalance(db: Db, accountId: string): Promise<AccountBalance | undefined> {
  return db.selectFrom('account_balances').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function findBalances(db: Db, accountIds: string[]): Promise<AccountBalance[]> {
  if (accountIds.length === 0) return [];
  return db.selectFrom('account_balances').selectAll().where('account_id', 'in', accountIds).execute();
}
