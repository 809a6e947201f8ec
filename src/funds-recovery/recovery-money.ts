// The money of a funds recovery (MED), in the caller's transaction.
//
// The Pix reached either an account of this server (the recovery names it: receiver_account_id)
// or another institution, which the simulated rail plays.
// - Value: what is left to recover when the recovery opens: the Pix value minus the
//   devolutions of it not refused (here); the whole value at another institution (the
//   simulated institutions never return a Pix on their own).
// - Analysis (AWAITING_ANALYSIS): the receiving account blocks what is left to recover, as
//   much of it as its available balance covers (security bucket: blockedBySecurity). Money
//   already spent is not taken back: the block is never more than the available balance, and
//   money that arrives later is not blocked. Another institution blocks the whole value.
// - AGREED (in favour of the payer): the block becomes a devolution of the Pix with natureza
//   MED_FRAUDE, settled by the rail like any devolution (REFUND_OUT here, REFUND_IN to the
//   payer, the refund events); a devolution of the Pix settled meanwhile is counted (the
//   return is capped at what is still refundable) and any rest of the block released. From
//   another institution the recovered value arrives at once as a REFUND_IN.
// - DISAGREED, or cancelled by the reporter while blocked: the block is released.
import { findAccountParty } from '../accounts/accounts.public';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, FundsRecovery, PixReceived } from '../db/schema';
import { recordEventsPart } from '../events/events.service';
import { writeTogether } from '../db/together';
import { applyMove, counterLeg, lockAccounts, OUTSIDE } from '../ledger/ledger.service';
import { newReturnId } from '../lib/ids';
import { cents } from '../lib/money';
import { OWN_ISPB } from '../lib/psp';
import {
  accountEventView,
  companyView,
  findReceived,
  lockReceived,
  refundableTotal,
  requestPlatformReturn,
} from '../pixin/pixin.public';
import { findTransaction, insertTransactionPart } from '../transactions/transactions.public';

// The natureza of a return under the MED for fraud (FR01): every situation type of a funds
// recovery is a kind of fraud.
const MED_NATUREZA = 'MED_FRAUDE';

// Where the Pix landed and what is left to recover of it, when the recovery opens.
export async function recoveryTarget(
  trx: Kysely<Database>,
  endToEndId: string,
  sentValue: number,
): Promise<{ receiver: PixReceived | undefined; value: number }> {
  const receiver = await findReceived(trx, endToEndId);
  return { receiver, value: receiver ? await refundableTotal(trx, receiver) : sentValue };
}

// Analysis: blocks what the receiving account can cover of what is left; answers the amount.
export async function blockForAnalysis(trx: Kysely<Database>, row: FundsRecovery, now: Date): Promise<number> {
  if (!row.receiver_account_id) return Number(row.value);
  const pix = await lockReceived(trx, row.end_to_end_id);
  if (!pix) return 0;
  const left = await refundableTotal(trx, pix);
  const balance = (await lockAccounts(trx, [pix.account_id], now)).get(pix.account_id)!;
  const amount = Math.max(0, Math.min(left, balance.available));
  if (amount === 0) return 0;
  const move = await applyMove(trx, {
    moveId: `med:${row.id}:block`,
    legs: [{ accountId: pix.account_id, kind: 'HOLD', bucket: 'security', amount: cents(amount) }],
    at: now,
    transactionId: pix.transaction_id,
    description: `Funds recovery ${row.id} of Pix ${row.end_to_end_id}: blocked for analysis`,
  });
  if (!move.ok) throw new Error(`blocking funds recovery ${row.id} failed: ${move.code}`);
  return amount;
}

// DISAGREED or cancelled: what is blocked here goes back to the available balance.
export async function releaseBlock(
  trx: Kysely<Database>,
  row: FundsRecovery,
  amount: number,
  why: string,
  now: Date,
): Promise<void> {
  if (!row.receiver_account_id || amount <= 0) return;
  const move = await applyMove(trx, {
    moveId: `med:${row.id}:release`,
    legs: [{ accountId: row.receiver_account_id, kind: 'RELEASE', bucket: 'security', amount: cents(amount) }],
    at: now,
    description: `Funds recovery ${row.id} of Pix ${row.end_to_end_id}: block released (${why})`,
  });
  if (!move.ok) throw new Error(`releasing funds recovery ${row.id} failed: ${move.code}`);
}

// AGREED: the blocked value goes back to the payer. Answers what was returned and its rtrId.
export async function returnToPayer(
  trx: Kysely<Database>,
  row: FundsRecovery,
  now: Date,
): Promise<{ recovered: number; returnId: string | null }> {
  const blocked = Number(row.blocked);
  if (blocked === 0) return { recovered: 0, returnId: null };
  if (!row.receiver_account_id) return returnFromOutside(trx, row, blocked, now);
  const pix = (await lockReceived(trx, row.end_to_end_id))!;
  const amount = Math.min(blocked, await refundableTotal(trx, pix));
  await releaseBlock(trx, row, blocked - amount, 'part already refunded', now);
  if (amount === 0) return { recovered: 0, returnId: null };
  const devolution = await requestPlatformReturn(
    trx,
    pix,
    {
      id: `MED${row.id.replace(/-/g, '')}`,
      value: amount,
      natureza: MED_NATUREZA,
      descricao: `Funds recovery ${row.id}`,
      from: 'security',
    },
    now,
  );
  if (!devolution) throw new Error(`returning funds recovery ${row.id} failed`);
  return { recovered: amount, returnId: devolution.rtr_id };
}

// Another institution returns the value it blocked: a REFUND_IN on the reporter's account.
async function returnFromOutside(
  trx: Kysely<Database>,
  row: FundsRecovery,
  amount: number,
  now: Date,
): Promise<{ recovered: number; returnId: string }> {
  const sent = await findSentDestination(trx, row);
  const rtrId = newReturnId(sent.ispb ?? OWN_ISPB, now);
  const transactionId = randomUUID();
  const move = await applyMove(trx, {
    moveId: `med:${row.id}:return`,
    legs: [{ accountId: row.account_id, kind: 'CREDIT', amount: cents(amount) }, counterLeg(OUTSIDE, -amount)],
    at: now,
    transactionId,
    description: `Funds recovery ${row.id} of Pix ${row.end_to_end_id}: returned`,
  });
  if (!move.ok) throw new Error(`crediting funds recovery ${row.id} failed: ${move.code}`);
  const party = (await findAccountParty(trx, row.account_id))!;
  const refund = {
    status: 'CONFIRMED',
    value: amount,
    endToEndId: rtrId,
    originalEndToEndId: row.end_to_end_id,
    natureza: MED_NATUREZA,
    transactionID: transactionId,
    time: now.toISOString(),
    comment: `Funds recovery ${row.id}`,
  };
  await writeTogether(trx, [
    insertTransactionPart({
      id: transactionId,
      company_id: row.company_id,
      account_id: row.account_id,
      type: 'REFUND_IN',
      value: amount,
      end_to_end_id: rtrId,
      charge_id: null,
      payment_id: null,
      created_at: now,
      details: { comment: refund.comment, payer: sent, originalEndToEndId: row.end_to_end_id, natureza: MED_NATUREZA },
    }),
    recordEventsPart([
      {
        companyId: row.company_id,
        type: 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED',
        payload: { refund, company: companyView(party), account: accountEventView(party) },
        at: now,
      },
    ]),
  ]);
  return { recovered: amount, returnId: rtrId };
}

// Who received the Pix (the recovered money comes back from them), as the PIX_OUT recorded it.
async function findSentDestination(
  trx: Kysely<Database>,
  row: FundsRecovery,
): Promise<{ name?: string; taxID?: string; ispb?: string }> {
  const tx = await findTransaction(trx, row.company_id, row.transaction_id);
  const destination = tx?.details.destination ?? {};
  // Only strings are taken: details are JSON written by another area.
  const pick = (k: 'name' | 'taxID' | 'ispb') => {
    const value: unknown = destination[k];
    return typeof value === 'string' ? { [k]: value } : {};
  };
  return { ...pick('name'), ...pick('taxID'), ...pick('ispb') };
}
