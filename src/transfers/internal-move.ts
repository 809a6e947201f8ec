// Money moved between two accounts of this server inside the caller's transaction: one ledger
// move (idempotent by its id) and, when it is new, its INTERNAL_TRANSFER transaction on the
// account the money left. A replay answers the transaction and time of the first move.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import { applyMove, findMove } from '../ledger/ledger.service';
import type { Cents } from '../lib/money';
import type { StoredTransactionDetails } from '../db/documents/transaction-details';
import { insertTransaction } from '../transactions/transactions.public';

export const INSUFFICIENT_BALANCE = 'Account does not have enough balance to complete the operation';

export interface InternalMove {
  moveId: string;
  companyId: string;
  fromAccountId: string;
  toAccountId: string;
  value: number;
  at: Date;
  description: string;
  // What the transaction shows besides its type and value (correlationID, destination...).
  details: StoredTransactionDetails;
  // The refusal when the move id was used by a move of other accounts or value.
  reused: string;
}

export async function moveInternally(
  trx: Kysely<Database>,
  m: InternalMove,
): Promise<{ transactionId: string; at: Date; replayed: boolean }> {
  const transactionId = randomUUID();
  const moved = await applyMove(trx, {
    moveId: m.moveId,
    legs: [
      { accountId: m.fromAccountId, kind: 'DEBIT', amount: m.value as Cents },
      { accountId: m.toAccountId, kind: 'CREDIT', amount: m.value as Cents },
    ],
    at: m.at,
    transactionId,
    description: m.description,
  });
  if (!moved.ok) {
    if (moved.code === 'EXISTS_WITH_DIFFERENT_LEGS') throw errors.badRequest(m.reused);
    throw errors.badRequest(INSUFFICIENT_BALANCE);
  }
  if (!moved.applied) {
    const first = await findMove(trx, m.moveId);
    return { transactionId: first?.transaction_id ?? transactionId, at: first?.created_at ?? m.at, replayed: true };
  }
  await insertTransaction(trx, {
    id: transactionId,
    company_id: m.companyId,
    account_id: m.fromAccountId,
    type: 'INTERNAL_TRANSFER',
    value: m.value,
    end_to_end_id: null,
    charge_id: null,
    payment_id: null,
    created_at: m.at,
    details: { comment: m.description, ...m.details },
  });
  return { transactionId, at: m.at, replayed: false };
}
