// The ledger: every money move is a set of legs applied atomically under row locks, written
// as append-only entries, idempotent by its move id, and refused (a result code, not an
// exception) when it would take a balance below zero. Call it inside the use case's
// transaction so the money moves with the state change that caused it.
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
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

// The platform's counter-accounts (see the double-entry migration): money from and to other
// institutions through the Pix rail, and the fees it earns. They have entries but no balance
// row: every move touches one, and locking a row every move writes would make all money
// movement of the server wait on it. Their balance is the sum of their entries (nothing
// checks it: they may go negative).
export const OUTSIDE = '@outside';
export const FEES = '@fees';
export const isCounterAccount = (accountId: string) => accountId.startsWith('@');

export type MoveFailure = 'INSUFFICIENT_FUNDS' | 'INSUFFICIENT_HELD' | 'INVALID_AMOUNT' | 'EXISTS_WITH_DIFFERENT_LEGS';

export type MoveResult =
  | { ok: true; applied: boolean; balances: Map<string, BalanceView> }
  | { ok: false; code: MoveFailure; accountId: string };

// The spec's AccountBalance, every bucket named.
export type BalanceView = Required<components['schemas']['AccountBalance']>;

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

// What a leg does to its account's total: credits add, debits take; holds and releases move
// money between buckets of the same account.
export function effectOf(leg: Pick<LedgerLeg, 'kind' | 'amount'>): number {
  return leg.kind === 'CREDIT' ? leg.amount : leg.kind === 'DEBIT' ? -leg.amount : 0;
}

// The counter-leg that balances a move with the outside world (or the fees account): a credit
// here is a debit there.
export function counterLeg(accountId: typeof OUTSIDE | typeof FEES, effect: number): LedgerLeg {
  return { accountId, kind: effect > 0 ? 'CREDIT' : 'DEBIT', amount: Math.abs(effect) as Cents };
}

// Applies the move's legs atomically (two statements), once per move id: a replay with the
// same legs is a no-op, with other legs EXISTS_WITH_DIFFERENT_LEGS. A customer account never
// goes below zero (INSUFFICIENT_FUNDS / INSUFFICIENT_HELD, nothing written).
export async function applyMove(trx: Kysely<Database>, move: Move): Promise<MoveResult> {
  return applyMoves(trx, [move]);
}

// Several moves in order, written together (one statement). With `locked` (balances the
// caller locked in this transaction, covering every account of the moves, whose move ids it
// has just made and so cannot be stored yet) nothing is locked or read again.
export async function applyMoves(trx: Kysely<Database>, moves: Move[], locked?: LockedBalances): Promise<MoveResult> {
  for (const move of moves) {
    const invalid = move.legs.find((leg) => !Number.isSafeInteger(leg.amount) || leg.amount <= 0);
    if (invalid) return { ok: false, code: 'INVALID_AMOUNT', accountId: invalid.accountId };
    // Double entry: a move that creates or destroys money is a bug of its caller.
    const net = move.legs.reduce((sum, leg) => sum + effectOf(leg), 0);
    if (net !== 0) throw new Error(`move ${move.moveId} does not balance: its legs add up to ${net}`);
  }
  const accountIds = moves.flatMap((m) => m.legs.map((l) => l.accountId)).filter((id) => !isCounterAccount(id));
  let balances: Map<string, AccountBalance>;
  let pending = moves;
  if (locked) {
    const missing = accountIds.find((id) => !locked.rows.has(id));
    if (missing) throw new Error(`account ${missing} was not locked before its move`);
    balances = locked.rows;
  } else {
    const read = await repo.lockBalancesForMoves(
      trx,
      accountIds,
      moves.map((m) => m.moveId),
      moves[0]!.at,
    );
    balances = read.balances;
    for (const move of moves) {
      const stored = read.stored.filter((l) => l.move_id === move.moveId);
      if (stored.length > 0 && !sameLegs(stored, move.legs))
        return { ok: false, code: 'EXISTS_WITH_DIFFERENT_LEGS', accountId: stored[0]!.account_id };
    }
    pending = moves.filter((move) => !read.stored.some((l) => l.move_id === move.moveId));
  }
  if (pending.length === 0) return { ok: true, applied: false, balances: viewsOf(balances) };
  const next = new Map([...balances].map(([id, b]) => [id, { ...b }]));
  for (const move of pending) {
    for (const leg of move.legs) {
      if (isCounterAccount(leg.accountId)) continue;
      const b = next.get(leg.accountId)!;
      b.updated_at = move.at;
      const refused = applyLeg(b, leg);
      if (refused) return { ok: false, code: refused, accountId: leg.accountId };
    }
  }
  const touched = new Set(pending.flatMap((m) => m.legs.map((l) => l.accountId)).filter((id) => !isCounterAccount(id)));
  await repo.writeMove(
    trx,
    pending.flatMap(entriesOf),
    [...touched].map((id) => next.get(id)!),
  );
  for (const id of touched) balances.set(id, next.get(id)!);
  return { ok: true, applied: true, balances: viewsOf(next) };
}

function entriesOf(move: Move): repo.NewEntry[] {
  return move.legs.map((leg) => ({
    account_id: leg.accountId,
    move_id: move.moveId,
    kind: leg.kind,
    bucket: leg.bucket ?? 'available',
    amount: leg.amount,
    transaction_id: move.transactionId ?? null,
    description: move.description ?? null,
    created_at: move.at,
  }));
}

// One leg on a locked balance; the refusal when a customer account would go below zero.
function applyLeg(b: AccountBalance, leg: LedgerLeg): 'INSUFFICIENT_FUNDS' | 'INSUFFICIENT_HELD' | undefined {
  const bucket = leg.bucket ?? 'available';
  const guarded = !isCounterAccount(b.account_id);
  const available = b.total - b.blocked - b.blocked_security - b.blocked_withdraw_safety;
  if (leg.kind === 'CREDIT') {
    b.total += leg.amount;
  } else if (leg.kind === 'DEBIT' && bucket === 'available') {
    if (guarded && available < leg.amount) return 'INSUFFICIENT_FUNDS';
    b.total -= leg.amount;
  } else if (leg.kind === 'DEBIT') {
    const column = HELD[bucket as HeldBucket];
    if (b[column] < leg.amount) return 'INSUFFICIENT_HELD';
    b[column] -= leg.amount;
    b.total -= leg.amount;
  } else if (leg.kind === 'HOLD') {
    if (bucket === 'available') throw new Error('a hold needs a held bucket');
    if (guarded && available < leg.amount) return 'INSUFFICIENT_FUNDS';
    b[HELD[bucket as HeldBucket]] += leg.amount;
  } else {
    if (bucket === 'available') throw new Error('a release needs a held bucket');
    const column = HELD[bucket as HeldBucket];
    if (b[column] < leg.amount) return 'INSUFFICIENT_HELD';
    b[column] -= leg.amount;
  }
  return undefined;
}

function sameLegs(stored: repo.StoredLeg[], legs: LedgerLeg[]): boolean {
  const key = (l: { account_id: string; kind: string; bucket: string; amount: number }) =>
    `${l.account_id} ${l.kind} ${l.bucket} ${l.amount}`;
  const a = stored.map(key).sort();
  const b = legs
    .map((l) => key({ account_id: l.accountId, kind: l.kind, bucket: l.bucket ?? 'available', amount: l.amount }))
    .sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
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

// Balances locked for the rest of the caller's transaction: to check before a move (limits,
// usage cannot race with another move) and to move money without locking again.
export class LockedBalances {
  constructor(readonly rows: Map<string, AccountBalance>) {}

  get(accountId: string): BalanceView | undefined {
    const row = this.rows.get(accountId);
    return row ? balanceView(row) : undefined;
  }
}

// Locks the balance rows of these accounts (in id order, creating missing ones).
export async function lockAccounts(trx: Kysely<Database>, accountIds: string[], at: Date): Promise<LockedBalances> {
  return new LockedBalances(await repo.lockBalances(trx, accountIds, at));
}

// The transaction and time of a move already written, if it was.
export async function findMove(db: Kysely<Database>, moveId: string) {
  return repo.findMoveRecord(db, moveId);
}

export type StatementRow = repo.StatementRow;

export async function statementOf(
  db: Kysely<Database>,
  accountId: string,
  period: { start?: Date; end?: Date },
  page: { skip: number; limit: number },
): Promise<StatementRow[]> {
  return repo.listStatement(db, accountId, period, page.skip, page.limit);
}

export async function legsOf(db: Kysely<Database>, moveId: string): Promise<LedgerLeg[]> {
  return (await repo.findMoveLegs(db, moveId)).map((l) => ({
    accountId: l.account_id,
    kind: l.kind,
    amount: l.amount as Cents,
    bucket: l.bucket,
  }));
}

export interface DailyFlow {
  // a Brasília civil date, YYYY-MM-DD
  day: string;
  moneyIn: number;
  moneyOut: number;
}

// An account's balance and its money in and out per Brasília day since `since` (days with no
// movement left out), in one statement.
export async function getBalanceWithDailyFlows(
  db: Kysely<Database>,
  accountId: string,
  since: Date,
): Promise<{ balance: BalanceView; days: DailyFlow[] }> {
  const { balance, days } = await repo.findBalanceWithDailyFlows(db, accountId, since);
  return {
    balance: balanceView(balance ?? undefined),
    days: days.map((d) => ({ day: d.day, moneyIn: d.credits, moneyOut: d.debits })),
  };
}
