// The ledger: every money move is a set of legs applied atomically under row locks, written
// as append-only entries, idempotent by its move id, and refused (a result code, not an
// exception) when it would take a balance below zero. Call it inside the use case's
// transaction so the money moves with the state change that caused it.
import type { Kysely } from 'kysely';
import type { AccountBalance, Database, LedgerBucket, LedgerEntryKind } from '../db/schema';
import type { Cents } from '../lib/money';
import * as repo from './ledger.repository';

// CREDIT/available: money in. DEBIT/available: money out of the free balance.
// HOLD/<bucket>: free money set aside. RELEASE/<bucket>: set-aside money freed.
// DEBIT/<bucket>: set-aside money leaves (a hold settled).
export interface LedgerLeg {
  accountId: string;
  kind: LedgerEntryKind;
  amount: Cents;
  bucket?: LedgerBucket;
}

export interface Move {
  moveId: string;
  legs: LedgerLeg[];
  at: Date;
  transactionId?: string;
  description?: string;
}

export type MoveFailure = 'INSUFFICIENT_FUNDS' | 'INSUFFICIENT_HELD' | 'INVALID_AMOUNT';

export type MoveResult =
  | { ok: true; applied: boolean; balances: Map<string, BalanceView> }
  | { ok: false; code: MoveFailure; accountId: string };

export interface BalanceView {
  total: number;
  blocked: number;
  available: number;
  blockedBySecurity: number;
  blockedByWithdrawSafety: number;
}

type HeldBucket = Exclude<LedgerBucket, 'available'>;
const HELD: Record<HeldBucket, 'blocked' | 'blocked_security' | 'blocked_withdraw_safety'> = {
  blocked: 'blocked',
  security: 'blocked_security',
  withdraw_safety: 'blocked_withdraw_safety',
};

export function balanceView(
  b: Pick<AccountBalance, 'total' | 'blocked' | 'blocked_security' | 'blocked_withdraw_safety'> | undefined,
): BalanceView {
  const total = b?.total ?? 0;
  const blockedBySecurity = b?.blocked_security ?? 0;
  const blockedByWithdrawSafety = b?.blocked_withdraw_safety ?? 0;
  const blocked = (b?.blocked ?? 0) + blockedBySecurity + blockedByWithdrawSafety;
  return { total, blocked, available: total - blocked, blockedBySecurity, blockedByWithdrawSafety };
}

export async function applyMove(trx: Kysely<Database>, move: Move): Promise<MoveResult> {
  const accountIds = move.legs.map((l) => l.accountId);
  for (const leg of move.legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount <= 0)
      return { ok: false, code: 'INVALID_AMOUNT', accountId: leg.accountId };
  }
  const locked = await repo.lockBalances(trx, accountIds, move.at);
  if (await repo.moveAlreadyApplied(trx, accountIds, move.moveId)) {
    return { ok: true, applied: false, balances: viewsOf(locked) };
  }
  const next = new Map([...locked].map(([id, b]) => [id, { ...b }]));
  for (const leg of move.legs) {
    const b = next.get(leg.accountId)!;
    const bucket = leg.bucket ?? 'available';
    const available = b.total - b.blocked - b.blocked_security - b.blocked_withdraw_safety;
    if (leg.kind === 'CREDIT') b.total += leg.amount;
    else if (leg.kind === 'DEBIT' && bucket === 'available') {
      if (available < leg.amount) return { ok: false, code: 'INSUFFICIENT_FUNDS', accountId: leg.accountId };
      b.total -= leg.amount;
    } else if (leg.kind === 'DEBIT') {
      const column = HELD[bucket as HeldBucket];
      if (b[column] < leg.amount) return { ok: false, code: 'INSUFFICIENT_HELD', accountId: leg.accountId };
      b[column] -= leg.amount;
      b.total -= leg.amount;
    } else if (leg.kind === 'HOLD') {
      if (bucket === 'available') throw new Error('a hold needs a held bucket');
      if (available < leg.amount) return { ok: false, code: 'INSUFFICIENT_FUNDS', accountId: leg.accountId };
      b[HELD[bucket as HeldBucket]] += leg.amount;
    } else {
      if (bucket === 'available') throw new Error('a release needs a held bucket');
      const column = HELD[bucket as HeldBucket];
      if (b[column] < leg.amount) return { ok: false, code: 'INSUFFICIENT_HELD', accountId: leg.accountId };
      b[column] -= leg.amount;
    }
    b.updated_at = move.at;
  }
  await repo.insertEntries(
    trx,
    move.legs.map((leg) => ({
      account_id: leg.accountId,
      move_id: move.moveId,
      kind: leg.kind,
      bucket: leg.bucket ?? 'available',
      amount: leg.amount,
      transaction_id: move.transactionId ?? null,
      description: move.description ?? null,
      created_at: move.at,
    })),
  );
  for (const b of next.values()) await repo.saveBalance(trx, b);
  return { ok: true, applied: true, balances: viewsOf(next) };
}

function viewsOf(balances: Map<string, AccountBalance>): Map<string, BalanceView> {
  return new Map([...balances].map(([id, b]) => [id, balanceView(b)]));
}

export async function getBalance(db: Kysely<Database>, accountId: string): Promise<BalanceView> {
  return balanceView(await repo.findBalance(db, accountId));
}

export async function getBalances(db: Kysely<Database>, accountIds: string[]): Promise<Map<string, BalanceView>> {
  const rows = await repo.findBalances(db, accountIds);
  const byId = new Map(rows.map((r) => [r.account_id, r]));
  return new Map(accountIds.map((id) => [id, balanceView(byId.get(id))]));
}

// Locks the balance rows of these accounts for the rest of the caller's transaction (in id
// order), so checks made before a move (limits, usage) cannot race with another move.
export async function lockAccounts(
  trx: Kysely<Database>,
  accountIds: string[],
  at: Date,
): Promise<Map<string, BalanceView>> {
  return viewsOf(await repo.lockBalances(trx, accountIds, at));
}
