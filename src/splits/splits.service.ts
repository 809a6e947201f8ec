// Split charges with money (src/splits/splits.rules.ts has the rules): inside the payment's
// database transaction the parts move from the receiver to their destinations in one ledger
// move (split:<endToEndId>), each part a transaction; a refund takes shares back in one move
// (split-return:<returnId>) before the receiver's hold.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findAccountCompanies } from '../accounts/accounts.public';
import type { Database } from '../db/schema';
import { findKeyAccounts } from '../keys/keys.public';
import {
  applyMove,
  applyMoves,
  counterLeg,
  type LedgerLeg,
  legsOf,
  lockAccounts,
  OUTSIDE,
} from '../ledger/ledger.service';
import { newEndToEndId } from '../lib/ids';
import type { Cents } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import { insertTransactions, type TransactionDetails } from '../transactions/transactions.public';
import { type PlannedPart, planParts, type Receiver, refundShares, type SplitConfig } from './splits.rules';

export type { PlannedPart } from './splits.rules';

// Where each part of a paid charge goes (one statement: the keys' accounts).
export async function planSplits(
  trx: Kysely<Database>,
  splits: SplitConfig[] | undefined,
  receiver: Receiver,
  paid: number,
): Promise<PlannedPart[]> {
  if (!splits?.length) return [];
  const owners = await findKeyAccounts(trx, [...new Set(splits.map((s) => s.pixKey))]);
  return planParts(splits, new Map(owners.map((o) => [o.key, o])), receiver, paid);
}

// What the payment's transaction shows of its parts.
export function splitsDetail(parts: PlannedPart[]): NonNullable<TransactionDetails['splits']> {
  return parts.map((p) => ({
    pixKey: p.pixKey,
    splitType: p.splitType,
    value: p.value,
    status: p.destination.kind === 'kept' ? 'KEPT' : 'SENT',
  }));
}

export interface SplitPayment {
  endToEndId: string;
  receiver: Receiver & { name: string; taxId: string };
  at: Date;
  charge: string;
}

// Moves the parts that leave the receiver (after the payment's credit, same transaction).
export async function executeSplits(trx: Kysely<Database>, parts: PlannedPart[], p: SplitPayment): Promise<void> {
  const sent = parts.filter((x) => x.destination.kind !== 'kept');
  if (sent.length === 0) return;
  const total = sent.reduce((sum, x) => sum + x.value, 0);
  const legs: LedgerLeg[] = [{ accountId: p.receiver.accountId, kind: 'DEBIT', amount: total as Cents }];
  let outside = 0;
  for (const part of sent) {
    if (part.destination.kind === 'account')
      legs.push({ accountId: part.destination.accountId, kind: 'CREDIT', amount: part.value as Cents });
    else outside += part.value;
  }
  if (outside > 0) legs.push(counterLeg(OUTSIDE, outside));
  const moved = await applyMove(trx, {
    moveId: `split:${p.endToEndId}`,
    legs,
    at: p.at,
    description: `Split of charge ${p.charge}`,
  });
  if (!moved.ok) throw new Error(`splitting the payment ${p.endToEndId} failed: ${moved.code}`);
  if (moved.applied)
    await insertTransactions(
      trx,
      sent.flatMap((part) => partTransactions(part, p)),
    );
}

// A part as the receiver sees it (the money leaving) and, when it lands in another company
// here, as that company sees it (money received).
type PartTransaction = Parameters<typeof insertTransactions>[1][number];

function partTransactions(part: PlannedPart, p: SplitPayment): PartTransaction[] {
  const dest = part.destination;
  const outside = dest.kind === 'outside';
  const split = { pixKey: part.pixKey, splitType: part.splitType, charge: p.charge, paymentEndToEndId: p.endToEndId };
  const base = { value: part.value, charge_id: null, payment_id: null, created_at: p.at };
  const rows: PartTransaction[] = [
    {
      ...base,
      id: randomUUID(),
      company_id: p.receiver.companyId,
      account_id: p.receiver.accountId,
      type: outside ? 'PIX_OUT' : 'INTERNAL_TRANSFER',
      end_to_end_id: outside ? newEndToEndId(OWN_ISPB, p.at) : null,
      details: { comment: `Split of charge ${p.charge}`, destination: { pixKey: part.pixKey }, split },
    },
  ];
  if (dest.kind === 'account' && dest.companyId !== p.receiver.companyId) {
    rows.push({
      ...base,
      id: randomUUID(),
      company_id: dest.companyId,
      account_id: dest.accountId,
      type: 'PIX_IN',
      end_to_end_id: null,
      details: {
        comment: `Split of charge ${p.charge}`,
        payer: { name: p.receiver.name, taxID: p.receiver.taxId, ispb: OWN_ISPB },
        split,
      },
    });
  }
  return rows;
}

// Before a refund of `value` of a split payment is held on the receiver: each account here
// that got a part gives back its share (at most what it has available) to the receiver.
export async function takeBackSplitParts(
  trx: Kysely<Database>,
  pix: { end_to_end_id: string; account_id: string; company_id: string; value: number },
  refund: number,
  returnId: string,
  at: Date,
): Promise<void> {
  const legs = await legsOf(trx, `split:${pix.end_to_end_id}`);
  const parts = legs
    .filter((l) => l.kind === 'CREDIT' && !l.accountId.startsWith('@'))
    .map((l) => ({ accountId: l.accountId, amount: l.amount as number }));
  const shares = refundShares(parts, refund, pix.value);
  if (shares.length === 0) return;
  const locked = await lockAccounts(trx, [pix.account_id, ...shares.map((s) => s.accountId)], at);
  const taken = shares
    .map((s) => ({ ...s, amount: Math.min(s.amount, locked.get(s.accountId)?.available ?? 0) }))
    .filter((s) => s.amount > 0);
  if (taken.length === 0) return;
  const total = taken.reduce((sum, s) => sum + s.amount, 0);
  const moved = await applyMoves(
    trx,
    [
      {
        moveId: `split-return:${returnId}`,
        legs: [
          ...taken.map((s) => ({ accountId: s.accountId, kind: 'DEBIT' as const, amount: s.amount as Cents })),
          { accountId: pix.account_id, kind: 'CREDIT', amount: total as Cents },
        ],
        at,
        description: `Split parts taken back for refund ${returnId} of Pix ${pix.end_to_end_id}`,
      },
    ],
    locked,
  );
  if (!moved.ok) throw new Error(`taking split parts back failed: ${moved.code}`);
  const companies = new Map(
    (
      await findAccountCompanies(
        trx,
        taken.map((t) => t.accountId),
      )
    ).map((a) => [a.id, a]),
  );
  await insertTransactions(
    trx,
    taken.map((t) => ({
      id: randomUUID(),
      company_id: companies.get(t.accountId)!.company_id,
      account_id: t.accountId,
      type: 'INTERNAL_TRANSFER',
      value: t.amount,
      end_to_end_id: null,
      charge_id: null,
      payment_id: null,
      created_at: at,
      details: {
        comment: `Split part given back for a refund of Pix ${pix.end_to_end_id}`,
        split: { paymentEndToEndId: pix.end_to_end_id, refund: returnId },
      },
    })),
  );
}
