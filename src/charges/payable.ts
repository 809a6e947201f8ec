// What money in (receivePix) needs from charges: find and lock the charge a payer is paying,
// say how much is due, complete it.
import type { Kysely } from 'kysely';
import type { Charge, Database } from '../db/schema';
import type { Cents } from '../lib/money';
import { amountDueAt, chargeIdOfGlobalId, isPastExpiry, tokenOfLocationUrl } from './charge-model';
import {
  type ChargeInContext,
  type ChargeWithAccount,
  findChargeByAnyId,
  findChargeInContextByAnyId,
  lockChargeWithAccount,
  markChargePaid,
} from './charges.repository';

export type PaymentTarget = { locationUrl: string } | { companyId: string; txid: string } | { locationId: number };
// When the payment happens: an instant, or the clock of the company the charge belongs to.
export type PaymentTime = Date | ((companyId: string) => Promise<Date>);
export interface PayableCharge {
  charge: Charge;
  amountDue: Cents;
  // The charge with its location, company and receiving account, as locked.
  found: ChargeWithAccount;
  at: Date;
}
export type PayableFailure = { code: 'NOT_FOUND' | 'EXPIRED' | 'NOT_PAYABLE' | 'PAST_VALIDITY'; message: string };

type LockResult = { ok: true; value: PayableCharge } | ({ ok: false } & PayableFailure);

const failure = (code: PayableFailure['code'], message: string): LockResult => ({ ok: false, code, message });

// Locks (FOR UPDATE) the charge a payer is paying, with what its views and events need, in one
// statement, and says how much is due at the payment's time. locationUrl is the BR Code's
// field 26.25 (host/path without scheme; matched on its token).
export async function lockChargeForPayment(
  trx: Kysely<Database>,
  target: PaymentTarget,
  when: PaymentTime,
): Promise<LockResult> {
  let found: ChargeWithAccount | undefined;
  if ('locationUrl' in target) {
    const token = tokenOfLocationUrl(target.locationUrl);
    found = token ? await lockChargeWithAccount(trx, { locationToken: token }) : undefined;
    if (!found) return failure('NOT_FOUND', 'No charge is served at this location');
  } else if ('locationId' in target) {
    found = await lockChargeWithAccount(trx, { locationId: target.locationId });
    if (!found) return failure('NOT_FOUND', 'No charge has this boleto');
  } else {
    found = await lockChargeWithAccount(trx, { companyId: target.companyId, txid: target.txid });
    if (!found) return failure('NOT_FOUND', 'Charge not found');
  }
  const at = when instanceof Date ? when : await when(found.charge.company_id);
  return payableAt(found, at);
}

// Whether the charge can be paid at `at`, and how much is then due.
function payableAt(found: ChargeWithAccount, at: Date): LockResult {
  const { charge } = found;
  if (charge.status !== 'ATIVA') {
    return failure(
      'NOT_PAYABLE',
      charge.status === 'CONCLUIDA' ? 'The charge is already paid' : 'The charge was removed',
    );
  }
  if (isPastExpiry(charge, at)) {
    return charge.kind === 'cob'
      ? failure('EXPIRED', 'The charge has expired')
      : failure('PAST_VALIDITY', 'The charge can no longer be paid: its validity after the due date has ended');
  }
  const due = amountDueAt(charge, at);
  if (!due.ok) return failure('PAST_VALIDITY', due.reason);
  return { ok: true, value: { charge, amountDue: due.value, found, at } };
}

// Marks the charge CONCLUIDA (paid_at = at) without a new revision: a payment is not a change
// of the charge object.
export async function completeCharge(trx: Kysely<Database>, found: ChargeWithAccount, at: Date): Promise<Charge> {
  const paid = { status: 'CONCLUIDA' as const, paid_at: at, updated_at: at };
  await markChargePaid(trx, found.charge.id, at);
  return { ...found.charge, ...paid };
}

// The charge of a company by id (or globalID) or correlationID (platform paths), or by txid;
// undefined when not found.
// The same, with what its views need around it (one statement).
export async function findCompanyChargeInContext(
  db: Kysely<Database>,
  companyId: string,
  idOrCorrelationId: string,
): Promise<ChargeInContext | undefined> {
  return findChargeInContextByAnyId(db, companyId, idOrCorrelationId, chargeIdOfGlobalId(idOrCorrelationId));
}

export async function findCompanyCharge(
  trx: Kysely<Database>,
  companyId: string,
  idOrCorrelationId: string,
): Promise<Charge | undefined> {
  return findChargeByAnyId(trx, companyId, idOrCorrelationId, chargeIdOfGlobalId(idOrCorrelationId));
}
