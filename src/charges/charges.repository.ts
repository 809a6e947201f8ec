// All SQL of charges, their revisions and payload locations (one model behind both APIs).
import { type Kysely, sql } from 'kysely';
import type {
  Charge,
  ChargeKind,
  ChargeStatus,
  ChargeUpdate,
  Company,
  Database,
  Location,
  NewCharge,
} from '../db/schema';

type Db = Kysely<Database>;

export async function insertCharge(db: Db, charge: NewCharge): Promise<Charge> {
  return db.insertInto('charges').values(charge).returningAll().executeTakeFirstOrThrow();
}

export async function insertRevision(
  db: Db,
  charge: Pick<Charge, 'id' | 'revision' | 'status' | 'body'>,
  at: Date,
): Promise<void> {
  await db
    .insertInto('charge_revisions')
    .values({
      charge_id: charge.id,
      revision: charge.revision,
      status: charge.status,
      body: JSON.stringify(charge.body),
      created_at: at,
    })
    .execute();
}

export async function updateCharge(db: Db, id: string, changes: ChargeUpdate): Promise<Charge> {
  return db.updateTable('charges').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function findChargeById(db: Db, id: string, forUpdate = false): Promise<Charge | undefined> {
  let q = db.selectFrom('charges').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findChargeByTxid(
  db: Db,
  companyId: string,
  txid: string,
  forUpdate = false,
): Promise<Charge | undefined> {
  let q = db.selectFrom('charges').selectAll().where('company_id', '=', companyId).where('txid', '=', txid);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findChargeByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
  forUpdate = false,
): Promise<Charge | undefined> {
  let q = db
    .selectFrom('charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

// A company's charge by id, correlationID or txid (in that order of precedence).
export async function findChargeByAnyId(
  db: Db,
  companyId: string,
  ids: string[],
  forUpdate = false,
): Promise<Charge | undefined> {
  if (ids.length === 0) return undefined;
  let q = db
    .selectFrom('charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('id', 'in', ids), eb('correlation_id', 'in', ids), eb('txid', 'in', ids)]));
  if (forUpdate) q = q.forUpdate();
  const rows = await q.execute();
  const rank = (c: Charge) =>
    ids.includes(c.id) ? 0 : c.correlation_id !== null && ids.includes(c.correlation_id) ? 1 : 2;
  return rows.sort((a, b) => rank(a) - rank(b))[0];
}

export async function findChargeByPaymentLinkId(db: Db, paymentLinkId: string): Promise<Charge | undefined> {
  return db.selectFrom('charges').selectAll().where('payment_link_id', '=', paymentLinkId).executeTakeFirst();
}

export async function findRevision(db: Db, chargeId: string, revision: number) {
  return db
    .selectFrom('charge_revisions')
    .selectAll()
    .where('charge_id', '=', chargeId)
    .where('revision', '=', revision)
    .executeTakeFirst();
}

export interface ChargeListFilter {
  companyId: string;
  kind?: ChargeKind;
  from?: Date;
  to?: Date;
  statuses?: ChargeStatus[];
  // Platform status filters, evaluated against `now`.
  platformStatus?: 'ACTIVE' | 'COMPLETED' | 'EXPIRED';
  now?: Date;
  customerId?: string | null;
  subscription?: string;
  cpf?: string;
  cnpj?: string;
  locationPresent?: boolean;
  loteId?: number;
}

// Days of validity after the due date, as an interval (cobv validity ends after due + days).
function listQuery(db: Db, f: ChargeListFilter) {
  let q = db.selectFrom('charges').where('company_id', '=', f.companyId);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.statuses) q = q.where('status', 'in', f.statuses);
  if (f.customerId !== undefined)
    q = f.customerId === null ? q.where(sql<boolean>`false`) : q.where('customer_id', '=', f.customerId);
  if (f.subscription !== undefined) q = q.where(sql<string>`platform->>'subscription'`, '=', f.subscription);
  if (f.cpf) q = q.where(sql<string>`body->'devedor'->>'cpf'`, '=', f.cpf);
  if (f.cnpj) q = q.where(sql<string>`body->'devedor'->>'cnpj'`, '=', f.cnpj);
  if (f.locationPresent !== undefined) q = q.where('location_id', f.locationPresent ? 'is not' : 'is', null);
  if (f.loteId !== undefined) q = q.where('lote_id', '=', f.loteId);
  if (f.platformStatus) {
    const now = f.now!;
    // A cobv is payable through the end of (due date + validity) in UTC.
    const cobvEnd = sql<Date>`((due_date + coalesce(validity_after_due, 0) + 1)::timestamp at time zone 'UTC')`;
    const expired = sql<boolean>`(case when kind = 'cob' then expires_at <= ${now} else ${cobvEnd} <= ${now} end)`;
    if (f.platformStatus === 'COMPLETED') q = q.where('status', '=', 'CONCLUIDA');
    else if (f.platformStatus === 'ACTIVE') q = q.where('status', '=', 'ATIVA').where(sql<boolean>`not ${expired}`);
    else
      q = q.where((eb) =>
        eb.or([
          eb('status', 'in', ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']),
          eb.and([eb('status', '=', 'ATIVA'), expired]),
        ]),
      );
  }
  return q;
}

export async function listCharges(
  db: Db,
  filter: ChargeListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: Charge[]; total: number }> {
  const rows = await listQuery(db, filter)
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await listQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

// Locations --------------------------------------------------------------------------------

export async function insertLocation(
  db: Db,
  loc: { company_id: string; kind: ChargeKind; token: string; created_at: Date },
): Promise<Location> {
  return db
    .insertInto('locations')
    .values({ ...loc, charge_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findLocation(
  db: Db,
  companyId: string,
  id: number,
  forUpdate = false,
): Promise<Location | undefined> {
  let q = db.selectFrom('locations').selectAll().where('company_id', '=', companyId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findLocationById(db: Db, id: number): Promise<Location | undefined> {
  return db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findLocationByToken(db: Db, token: string): Promise<Location | undefined> {
  return db.selectFrom('locations').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function setLocationCharge(db: Db, locationId: number, chargeId: string | null): Promise<Location> {
  return db
    .updateTable('locations')
    .set(chargeId === null ? { charge_id: null } : { charge_id: chargeId, linked_once: true })
    .where('id', '=', locationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function locationsById(db: Db, ids: number[]): Promise<Map<number, Location>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('locations').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}

export interface LocationListFilter {
  companyId: string;
  from?: Date;
  to?: Date;
  txidPresent?: boolean;
  kind?: ChargeKind;
}

function locationListQuery(db: Db, f: LocationListFilter) {
  let q = db.selectFrom('locations').where('company_id', '=', f.companyId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.txidPresent !== undefined) q = q.where('charge_id', f.txidPresent ? 'is not' : 'is', null);
  return q;
}

export async function listLocations(
  db: Db,
  filter: LocationListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: Location[]; total: number }> {
  const rows = await locationListQuery(db, filter)
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await locationListQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

export async function txidsOfCharges(db: Db, chargeIds: string[]): Promise<Map<string, string>> {
  if (chargeIds.length === 0) return new Map();
  const rows = await db.selectFrom('charges').select(['id', 'txid']).where('id', 'in', chargeIds).execute();
  return new Map(rows.map((r) => [r.id, r.txid]));
}

// Companies -------------------------------------------------------------------------------

export async function findCompanyRow(db: Db, companyId: string): Promise<Company | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
}

// Expiry ----------------------------------------------------------------------------------

// Claims up to `limit` expired charges whose expiry event is not recorded yet (other
// processes skip the rows this one holds).
export async function claimExpiredCharges(db: Db, now: Date, limit: number): Promise<Charge[]> {
  const cobvEnd = sql<Date>`((due_date + coalesce(validity_after_due, 0) + 1)::timestamp at time zone 'UTC')`;
  return db
    .selectFrom('charges')
    .selectAll()
    .where('status', '=', 'ATIVA')
    .where('expired_event_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'cob'), eb('expires_at', '<=', now)]),
        eb.and([eb('kind', '=', 'cobv'), eb(cobvEnd, '<=', now)]),
      ]),
    )
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}
