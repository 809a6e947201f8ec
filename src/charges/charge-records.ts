// Writing the one charge record, shared by both APIs: create (with its location, revision 0
// and the CHARGE_CREATED event), revise (a new revision of the standard's object), and move
// or unlink its location. Every function runs inside the caller's transaction.
import type { Kysely } from 'kysely';
import type {
  Charge,
  ChargeKind,
  ChargeStatus,
  ChargeUpdate,
  Database,
  Location,
  PlatformChargeType,
} from '../db/schema';
import { recordEvent } from '../events/events.repository';
import type { FieldIssue } from '../http/errors';
import { newAccessToken, newPublicId } from '../lib/ids';
import { findAccountParty } from '../pixin/pixin.repository';
import { accountEventView, companyView } from '../pixin/pixin.views';
import * as repo from './charges.repository';
import { platformChargeView } from './platform/platform-view';

export const CHARGE_CREATED = 'OPENPIX:CHARGE_CREATED';
export const CHARGE_EXPIRED = 'OPENPIX:CHARGE_EXPIRED';

export interface NewChargeRecord {
  companyId: string;
  accountId: string;
  kind: ChargeKind;
  platformType: PlatformChargeType;
  txid: string;
  correlationId: string | null;
  body: Record<string, unknown>;
  platform: Record<string, unknown>;
  value: number;
  pixKey: string;
  customerId: string | null;
  expiresAt: Date | null;
  dueDate: string | null;
  validityAfterDue: number | null;
  paymentLinkId: string;
  // An existing location (already checked with claimLocation), or a new one is made.
  location?: Location;
  loteId?: number;
  now: Date;
}

// Checks that a location of the company can serve a charge of `kind` (free, or already serving
// `chargeId`) and locks it; the violation otherwise.
export async function claimLocation(
  trx: Kysely<Database>,
  companyId: string,
  locationId: number,
  kind: ChargeKind,
  chargeId?: string,
): Promise<{ ok: true; location: Location } | { ok: false; issue: FieldIssue }> {
  const location = await repo.findLocation(trx, companyId, locationId, true);
  const value = String(locationId);
  if (!location) return { ok: false, issue: { field: 'loc.id', message: 'the location does not exist', value } };
  if (location.kind !== kind)
    return {
      ok: false,
      issue: { field: 'loc.id', message: `the location is of type ${location.kind}, not ${kind}`, value },
    };
  if (location.charge_id !== null && location.charge_id !== chargeId) {
    return { ok: false, issue: { field: 'loc.id', message: 'the location is in use by another charge', value } };
  }
  return { ok: true, location };
}

export async function newLocation(
  trx: Kysely<Database>,
  companyId: string,
  kind: ChargeKind,
  now: Date,
): Promise<Location> {
  return repo.insertLocation(trx, { company_id: companyId, kind, token: newAccessToken(), created_at: now });
}

export async function createChargeRecord(
  trx: Kysely<Database>,
  input: NewChargeRecord,
  publicUrl: string,
): Promise<Charge> {
  const location = input.location ?? (await newLocation(trx, input.companyId, input.kind, input.now));
  const inserted = await repo.insertCharge(trx, {
    id: newPublicId('ch'),
    company_id: input.companyId,
    account_id: input.accountId,
    kind: input.kind,
    platform_type: input.platformType,
    txid: input.txid,
    correlation_id: input.correlationId,
    status: 'ATIVA',
    revision: 0,
    value: input.value,
    pix_key: input.pixKey,
    location_id: location.id,
    payment_link_id: input.paymentLinkId,
    customer_id: input.customerId,
    body: JSON.stringify(input.body),
    platform: JSON.stringify(input.platform),
    created_at: input.now,
    updated_at: input.now,
    expires_at: input.expiresAt,
    due_date: input.dueDate,
    validity_after_due: input.validityAfterDue,
    paid_at: null,
    expired_event_at: null,
    lote_id: input.loteId ?? null,
  });
  await repo.setLocationCharge(trx, location.id, inserted.id);
  await repo.insertRevision(trx, inserted, input.now);
  await recordEvent(trx, {
    companyId: input.companyId,
    type: CHARGE_CREATED,
    payload: await chargeEventPayload(trx, inserted, publicUrl, input.now),
    at: input.now,
  });
  return inserted;
}

// The payload of the charge events: the platform charge object, its company and account.
export async function chargeEventPayload(
  trx: Kysely<Database>,
  charge: Charge,
  publicUrl: string,
  now: Date,
): Promise<Record<string, unknown>> {
  const party = await findAccountParty(trx, charge.account_id);
  return {
    charge: await platformChargeView(trx, charge, publicUrl, now),
    ...(party ? { company: companyView(party), account: accountEventView(party) } : {}),
  };
}

export interface ChargeRevision {
  body: Record<string, unknown>;
  status?: ChargeStatus;
  value?: number;
  pixKey?: string;
  expiresAt?: Date | null;
  dueDate?: string | null;
  validityAfterDue?: number | null;
  platform?: Record<string, unknown>;
  customerId?: string | null;
}

// A new revision of the standard's object (revisao + 1, the old one kept).
export async function reviseChargeRecord(
  trx: Kysely<Database>,
  charge: Charge,
  change: ChargeRevision,
  now: Date,
): Promise<Charge> {
  const update: ChargeUpdate = {
    revision: charge.revision + 1,
    body: JSON.stringify(change.body),
    updated_at: now,
    ...(change.status !== undefined ? { status: change.status } : {}),
    ...(change.value !== undefined ? { value: change.value } : {}),
    ...(change.pixKey !== undefined ? { pix_key: change.pixKey } : {}),
    ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}),
    ...(change.dueDate !== undefined ? { due_date: change.dueDate } : {}),
    ...(change.validityAfterDue !== undefined ? { validity_after_due: change.validityAfterDue } : {}),
    ...(change.platform !== undefined ? { platform: JSON.stringify(change.platform) } : {}),
    ...(change.customerId !== undefined ? { customer_id: change.customerId } : {}),
    // A new expiry or due date may make an expired charge payable again: expiry is re-announced.
    ...(change.expiresAt !== undefined || change.dueDate !== undefined || change.validityAfterDue !== undefined
      ? { expired_event_at: null }
      : {}),
  };
  const revised = await repo.updateCharge(trx, charge.id, update);
  await repo.insertRevision(trx, revised, now);
  return revised;
}

// Moves the charge to another location (null: unlinks it). Not a revision of the charge.
export async function relocateCharge(
  trx: Kysely<Database>,
  charge: Charge,
  location: Location | null,
  now: Date,
): Promise<Charge> {
  if (charge.location_id !== null && Number(charge.location_id) !== location?.id) {
    await repo.setLocationCharge(trx, Number(charge.location_id), null);
  }
  const moved = await repo.updateCharge(trx, charge.id, { location_id: location?.id ?? null, updated_at: now });
  if (location && location.charge_id !== charge.id) await repo.setLocationCharge(trx, location.id, charge.id);
  return moved;
}
