// Writing the one charge record, shared by both APIs: create (with its location, revision 0
// and the CHARGE_CREATED event), revise (a new revision of the standard's object), and move
// or unlink its location. Every function runs inside the caller's transaction.
import { type AccountParty, findAccountParty } from '../accounts/accounts.public';
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
import type { FieldIssue } from '../errors/errors';
import { newAccessToken, newPublicId } from '../lib/ids';
import { randomUUID } from 'node:crypto';
import { type ReceivingKey } from '../keys/keys.public';
import { accountEventView, companyView } from '../pixin/pixin.public';
import {
  type ChargeCompany,
  type ChargeInContext,
  insertChargeWithLocation,
  updateCharge,
  updateChargeWithRevision,
} from './charges.repository';
import { insertLocation, lockLocation, setLocationCharge } from './locations.repository';
import {
  buildPlatformChargeView,
  type ChargeViewContext,
  type PlatformCharge,
  platformChargeView,
} from './platform/platform.view';
import { payableUntilOf } from './charge-model';
import type { PlatformSettings, StoredChargeBody } from '../db/documents/charge-body';
import type { WritePart } from '../db/together';

export const CHARGE_CREATED = 'OPENPIX:CHARGE_CREATED';
export const CHARGE_EXPIRED = 'OPENPIX:CHARGE_EXPIRED';
export const CHARGE_DELETED = 'PIXGATE:CHARGE_DELETED';

export interface NewChargeRecord {
  companyId: string;
  kind: ChargeKind;
  platformType: PlatformChargeType;
  txid: string;
  correlationId: string | null;
  body: StoredChargeBody;
  platform: PlatformSettings;
  value: number;
  // The receiving key and its account; the company, as the caller already has it.
  key: ReceivingKey;
  company: ChargeCompany & { id: string };
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
  const location = await lockLocation(trx, companyId, locationId);
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
  return insertLocation(trx, { company_id: companyId, kind, token: newAccessToken(), created_at: now });
}

// A new charge as it will be written (row, location, the charge in its context), without the
// database: what creation writes, and what a test event's sample charge is made of.
export function newChargeOf(input: NewChargeRecord) {
  const row = {
    id: newPublicId('ch'),
    company_id: input.companyId,
    account_id: input.key.account_id,
    kind: input.kind,
    platform_type: input.platformType,
    txid: input.txid,
    correlation_id: input.correlationId,
    status: 'ATIVA' as const,
    revision: 0,
    value: input.value,
    pix_key: input.key.key,
    payment_link_id: input.paymentLinkId,
    customer_id: input.customerId,
    created_at: input.now,
    updated_at: input.now,
    expires_at: input.expiresAt,
    due_date: input.dueDate,
    validity_after_due: input.validityAfterDue,
    payable_until: payableUntilOf({
      kind: input.kind,
      expires_at: input.expiresAt,
      due_date: input.dueDate,
      validity_after_due: input.validityAfterDue,
    }),
    paid_at: null,
    expired_event_at: null,
    lote_id: input.loteId ?? null,
  };
  const location: Location = input.location
    ? { ...input.location, charge_id: row.id, linked_once: true }
    : {
        id: 0,
        company_id: input.companyId,
        kind: input.kind,
        token: newAccessToken(),
        charge_id: row.id,
        created_at: input.now,
        linked_once: true,
      };
  const provisional: ChargeInContext = {
    charge: { ...row, body: input.body, platform: input.platform, location_id: location.id },
    location,
    company: input.company,
  };
  return { row, location, provisional };
}

// Creates the charge with its location, revision 0 and its CHARGE_CREATED event, in one
// statement; the event payload is built from what the caller already has.
export async function createChargeRecord(
  trx: Kysely<Database>,
  input: NewChargeRecord,
  publicUrl: string,
): Promise<ChargeInContext> {
  const { row, location, provisional } = newChargeOf(input);
  const payload = chargeEventPayloadOf(provisional, receivingParty(input), publicUrl, input.now);
  const { charge } = await insertChargeWithLocation(
    trx,
    { ...row, body: JSON.stringify(input.body), platform: JSON.stringify(input.platform) },
    input.location ? { existingId: input.location.id } : { token: location.token },
    {
      id: randomUUID(),
      type: CHARGE_CREATED,
      payload: JSON.stringify(payload),
      objectId: payload.charge.globalID,
      correlationId: payload.charge.correlationID,
    },
  );
  return { charge, location: { ...location, id: Number(charge.location_id) }, company: input.company };
}

function receivingParty(input: NewChargeRecord): AccountParty {
  return {
    company_id: input.companyId,
    company_name: input.company.name,
    company_tax_id: input.company.tax_id,
    account_id: input.key.account_id,
    branch: input.key.branch,
    account_number: input.key.account_number,
    status: input.key.account_status,
  };
}

// Which API created a charge: the platform API always stores the client's correlationID, the
// Pix API (cob, cobv, lotecobv) never has one.
export type ChargeCreatedBy = 'PLATFORM_API' | 'PIX_API';
export function chargeCreatedBy(charge: Pick<Charge, 'correlation_id'>): ChargeCreatedBy {
  return charge.correlation_id !== null ? 'PLATFORM_API' : 'PIX_API';
}

// The charge object of webhook payloads: the platform charge and the API that created it.
export type ChargeEventView = PlatformCharge & { createdBy: ChargeCreatedBy };
// The payload of the charge events (company and account when the receiving account is known).
export type ChargeEventPayload = {
  charge: ChargeEventView;
  company?: ReturnType<typeof companyView>;
  account?: ReturnType<typeof accountEventView>;
};

export function chargeEventView(charge: Charge, ctx: ChargeViewContext, publicUrl: string, now: Date): ChargeEventView {
  return { ...buildPlatformChargeView(charge, ctx, publicUrl, now), createdBy: chargeCreatedBy(charge) };
}

// The payload of the charge events: the platform charge object, its company and account.
export function chargeEventPayloadOf(
  charge: ChargeInContext,
  party: AccountParty | undefined,
  publicUrl: string,
  now: Date,
): ChargeEventPayload {
  return {
    charge: chargeEventView(charge.charge, charge, publicUrl, now),
    ...(party ? { company: companyView(party), account: accountEventView(party) } : {}),
  };
}

// The same, reading what is around the charge (for callers that have only the row).
export async function chargeEventPayload(
  trx: Kysely<Database>,
  charge: Charge,
  publicUrl: string,
  now: Date,
): Promise<ChargeEventPayload> {
  const party = await findAccountParty(trx, charge.account_id);
  return {
    charge: { ...(await platformChargeView(trx, charge, publicUrl, now)), createdBy: chargeCreatedBy(charge) },
    ...(party ? { company: companyView(party), account: accountEventView(party) } : {}),
  };
}

export interface ChargeRevision {
  body: StoredChargeBody;
  status?: ChargeStatus;
  value?: number;
  pixKey?: string;
  expiresAt?: Date | null;
  dueDate?: string | null;
  validityAfterDue?: number | null;
  platform?: PlatformSettings;
  customerId?: string | null;
}

// A new revision of the standard's object (revisao + 1, the old one kept).
// `also`: writes that go with the revision in its statement (the event it records).
export async function reviseChargeRecord(
  trx: Kysely<Database>,
  charge: Charge,
  change: ChargeRevision,
  now: Date,
  also: WritePart[] = [],
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
  };
  // A new expiry or due date may make an expired charge payable again: expiry is re-announced.
  if (change.expiresAt !== undefined || change.dueDate !== undefined || change.validityAfterDue !== undefined) {
    update.expired_event_at = null;
    update.payable_until = payableUntilOf({
      kind: charge.kind,
      expires_at: change.expiresAt !== undefined ? change.expiresAt : charge.expires_at,
      due_date: change.dueDate !== undefined ? change.dueDate : charge.due_date,
      validity_after_due: change.validityAfterDue !== undefined ? change.validityAfterDue : charge.validity_after_due,
    });
  }
  return updateChargeWithRevision(trx, charge.id, update, now, also);
}

// Moves the charge to another location (null: unlinks it). Not a revision of the charge.
export async function relocateCharge(
  trx: Kysely<Database>,
  charge: Charge,
  location: Location | null,
  now: Date,
): Promise<Charge> {
  if (charge.location_id !== null && Number(charge.location_id) !== location?.id) {
    await setLocationCharge(trx, Number(charge.location_id), null);
  }
  const moved = await updateCharge(trx, charge.id, { location_id: location?.id ?? null, updated_at: now });
  if (location && location.charge_id !== charge.id) await setLocationCharge(trx, location.id, charge.id);
  return moved;
}
