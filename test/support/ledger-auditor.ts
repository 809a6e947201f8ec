// The ledger auditor: replays every entry and checks it against the stored balances. Every test
// server runs it when it closes (test/support/server.ts); it fails on money created or lost (a
// move or the whole ledger not adding up to zero), a balance that is not the sum of its
// entries, or a customer account below zero (the platform's @ counter-accounts may be).
import * as assert from 'uvu/assert';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';

export async function auditLedger(db: Kysely<Database>): Promise<void> {
  await inOneSnapshot(db, auditLedgerIn);
}

// The audit reads entries, then balances, then holds: background work (a refund settling on the
// simulated rail) may commit between those reads, so they all see one snapshot.
async function inOneSnapshot(db: Kysely<Database>, audit: (db: Kysely<Database>) => Promise<void>): Promise<void> {
  if (db.isTransaction) return audit(db);
  await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => audit(trx));
}

async function auditLedgerIn(db: Kysely<Database>): Promise<void> {
  const entries = await db
    .selectFrom('ledger_entries')
    .select(['account_id', 'move_id', 'kind', 'bucket', 'amount'])
    .orderBy('id')
    .execute();
  const replayed = new Map<string, { total: number; blocked: number; security: number; withdraw_safety: number }>();
  const moves = new Map<string, number>();
  for (const e of entries) {
    const effect = e.kind === 'CREDIT' ? Number(e.amount) : e.kind === 'DEBIT' ? -Number(e.amount) : 0;
    moves.set(e.move_id, (moves.get(e.move_id) ?? 0) + effect);
    const b = replayed.get(e.account_id) ?? { total: 0, blocked: 0, security: 0, withdraw_safety: 0 };
    const amount = Number(e.amount);
    if (e.kind === 'CREDIT') b.total += amount;
    if (e.kind === 'DEBIT') b.total -= amount;
    const held = e.bucket === 'available' ? undefined : (e.bucket as 'blocked' | 'security' | 'withdraw_safety');
    if (held && e.kind === 'HOLD') b[held] += amount;
    if (held && (e.kind === 'RELEASE' || e.kind === 'DEBIT')) b[held] -= amount;
    if (!e.account_id.startsWith('@')) {
      for (const v of Object.values(b)) assert.ok(v >= 0, `account ${e.account_id} went below zero while replaying`);
    }
    replayed.set(e.account_id, b);
  }
  const unbalanced = [...moves].filter(([, net]) => net !== 0);
  assert.equal(unbalanced, [], 'moves whose legs do not add up to zero');
  const sum = [...moves.values()].reduce((a, b) => a + b, 0);
  assert.is(sum, 0, 'the ledger entries do not add up to zero');
  // Counter-accounts (@) keep no balance row: their balance is the sum of their entries.
  for (const id of [...replayed.keys()]) if (id.startsWith('@')) replayed.delete(id);
  const balances = await db.selectFrom('account_balances').selectAll().where('account_id', 'not like', '@%').execute();
  for (const row of balances) {
    const r = replayed.get(row.account_id) ?? { total: 0, blocked: 0, security: 0, withdraw_safety: 0 };
    assert.equal(
      {
        total: Number(row.total),
        blocked: Number(row.blocked),
        security: Number(row.blocked_security),
        withdraw_safety: Number(row.blocked_withdraw_safety),
      },
      r,
      `balance of ${row.account_id} does not match its entries`,
    );
  }
  assert.is(balances.length >= replayed.size, true, 'an account has entries but no balance row');
  await auditPaymentHolds(db);
}

// Every payment hold was settled or released once, of its own amount (approvals are
// synchronous, so none is left pending).
async function auditPaymentHolds(db: Kysely<Database>): Promise<void> {
  const moves = await db
    .selectFrom('ledger_entries')
    .select(['account_id', 'move_id', 'kind', 'amount'])
    .where('move_id', 'like', 'payment:%')
    // The paying account's legs (the counter-legs on @outside are the other side).
    .where('account_id', 'not like', '@%')
    .execute();
  const byPayment = new Map<string, Array<{ step: string; account: string; kind: string; amount: number }>>();
  for (const m of moves) {
    const [, id, step] = m.move_id.split(':');
    byPayment.set(id!, [
      ...(byPayment.get(id!) ?? []),
      { step: step!, account: m.account_id, kind: m.kind, amount: Number(m.amount) },
    ]);
  }
  for (const [id, legs] of byPayment) {
    const hold = legs.filter((l) => l.step === 'hold');
    const ends = legs.filter((l) => l.step === 'settle' || l.step === 'release');
    assert.is(hold.length, 1, `payment ${id} has ${hold.length} holds`);
    assert.is(ends.length, 1, `payment ${id} hold was settled or released ${ends.length} times`);
    assert.equal(
      [ends[0]!.account, ends[0]!.amount],
      [hold[0]!.account, hold[0]!.amount],
      `payment ${id} ended a hold of another amount`,
    );
  }
}

// Money out, for files whose transactions all come from real moves (fixtures that insert
// transaction rows by hand would fail it): every PIX_OUT, BILL_PAYMENT, WITHDRAW and FEE transaction is
// backed by debits of exactly its value, and a Pix sent to a company here arrived with the
// value it left with (no money created or lost between the two sides).
export async function auditMoneyOut(db: Kysely<Database>): Promise<void> {
  await inOneSnapshot(db, auditMoneyOutIn);
}

async function auditMoneyOutIn(db: Kysely<Database>): Promise<void> {
  await auditLedgerIn(db);
  const txs = await db
    .selectFrom('transactions')
    .select(['id', 'type', 'value', 'end_to_end_id'])
    .where('type', 'in', ['PIX_OUT', 'BILL_PAYMENT', 'WITHDRAW', 'FEE'])
    .execute();
  const debits = await db
    .selectFrom('ledger_entries')
    .select(['transaction_id', (eb) => eb.fn.sum<number>('amount').as('total')])
    .where('kind', '=', 'DEBIT')
    .where('transaction_id', 'in', txs.length ? txs.map((t) => t.id) : [''])
    .groupBy('transaction_id')
    .execute();
  const debited = new Map(debits.map((d) => [d.transaction_id, Number(d.total)]));
  for (const t of txs)
    assert.is(debited.get(t.id), Number(t.value), `${t.type} transaction ${t.id} is not backed by debits of its value`);
  const outs = txs.filter((t) => t.type === 'PIX_OUT' && t.end_to_end_id);
  if (outs.length === 0) return;
  const ins = await db
    .selectFrom('transactions')
    .select(['end_to_end_id', 'value'])
    .where('type', '=', 'PIX_IN')
    .where(
      'end_to_end_id',
      'in',
      outs.map((t) => t.end_to_end_id!),
    )
    .execute();
  const sent = new Map(outs.map((t) => [t.end_to_end_id, Number(t.value)]));
  for (const i of ins)
    assert.is(
      Number(i.value),
      sent.get(i.end_to_end_id),
      `the Pix ${i.end_to_end_id} arrived with another value than it left`,
    );
}
