// What money in (receivePix) needs from charges: find and lock the charge a payer is paying,
// say how much is due, complete it, and render it for webhook payloads.
import type { Kysely } from 'kysely';
import type { Charge, Database } from '../db/schema';
import { todayUtc } from '../lib/business-days';
import type { Cents } from '../lib/money';
import { amountDueAt, chargeIdOfGlobalId, cobvLastDay, tokenOfLocationUrl } from './charge-model';
import * as repo from './charges.repository';
import { platformChargeView as buildView } from './platform/platform-view';

export type PaymentTarget = { locationUrl: string } | { companyId: string; txid: string };
export interface PayableCharge {
  charge: Charge;
  amountDue: Cents;
}
export type PayableFailure = { code: 'NOT_FOUND' | 'EXPIRED' | 'NOT_PAYABLE' | 'PAST_VALIDITY'; message: string };

type LockResult = { ok: true; value: PayableCharge } | ({ ok: false } & PayableFailure);

const failure = (code: PayableFailure['code'], message: string): LockResult => ({ ok: false, code, message });

// Locks (FOR UPDATE) the charge a payer is paying and says how much is due at `at`.
// locationUrl is the BR Code's field 26.25 (host/path without scheme; matched on its token).
export async function lockChargeForPayment(
  trx: Kysely<Database>,
  target: PaymentTarget,
  at: Date,
): Promise<LockResult> {
  let charge: Charge | undefined;
  if ('locationUrl' in target) {
    const token = tokenOfLocationUrl(target.locationUrl);
    const location = token ? await repo.findLocationByToken(trx, token) : undefined;
    if (!location?.charge_id) return failure('NOT_FOUND', 'No charge is served at this location');
    charge = await repo.findChargeById(trx, location.charge_id, true);
  } else {
    charge = await repo.findChargeByTxid(trx, target.companyId, target.txid, true);
  }
  if (!charge) return failure('NOT_FOUND', 'Charge not found');
  if (charge.status !== 'ATIVA') {
    return failure(
      'NOT_PAYABLE',
      charge.status === 'CONCLUIDA' ? 'The charge is already paid' : 'The charge was removed',
    );
  }
  if (charge.kind === 'cob') {
    if (charge.expires_at!.getTime() <= at.getTime()) return failure('EXPIRED', 'The charge has expired');
  } else if (todayUtc(at) > cobvLastDay(charge)) {
    return failure('PAST_VALIDITY', 'The charge can no longer be paid: its validity after the due date has ended');
  }
  const due = amountDueAt(charge, at);
  if (!due.ok) return failure('PAST_VALIDITY', due.reason);
  return { ok: true, value: { charge, amountDue: due.value } };
}

// Marks the charge CONCLUIDA (paid_at = at) without a new revision: a payment is not a change
// of the charge object.
export async function completeCharge(trx: Kysely<Database>, chargeId: string, at: Date): Promise<void> {
  await trx
    .updateTable('charges')
    .set({ status: 'CONCLUIDA', paid_at: at, updated_at: at })
    .where('id', '=', chargeId)
    .execute();
}

// The platform API's charge object (as GET /api/v1/charge/{id} answers it) for webhook payloads.
export async function platformChargeView(
  trx: Kysely<Database>,
  charge: Charge,
  publicUrl: string,
  now: Date,
): Promise<Record<string, unknown>> {
  return buildView(trx, charge, publicUrl, now);
}

// The charge of a company by id (or globalID) or correlationID (platform paths), or by txid;
// undefined when not found.
export async function findCompanyCharge(
  trx: Kysely<Database>,
  companyId: string,
  idOrCorrelationId: string,
): Promise<Charge | undefined> {
  const ids = [idOrCorrelationId];
  const fromGlobal = chargeIdOfGlobalId(idOrCorrelationId);
  if (fromGlobal) ids.push(fromGlobal);
  return repo.findChargeByAnyId(trx, companyId, ids);
}
