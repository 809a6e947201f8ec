// The SQL of payload locations (loc): the URLs a BR Code points at, each serving one charge
// of its kind at a time.
import { qualified } from '../db/columns';
import { type Charge, CHARGE_ROW_COLUMNS, type ChargeKind, type Db, type Location } from '../db/schema';
import { prepared } from '../db/prepared';

// The charge a payload location serves, with the location (also when it serves none).
const locationWithCharge = prepared(['token'], (db, p: { token: string }) =>
  db
    .selectFrom('locations')
    .leftJoin('charges', 'charges.id', 'locations.charge_id')
    .select(qualified('charges', CHARGE_ROW_COLUMNS))
    .select([
      'locations.id as loc_id',
      'locations.company_id as loc_company_id',
      'locations.kind as loc_kind',
      'locations.token as loc_token',
      'locations.charge_id as loc_charge_id',
      'locations.created_at as loc_created_at',
      'locations.linked_once as loc_linked_once',
    ])
    .where('locations.token', '=', p.token),
);

export async function findLocationWithCharge(
  db: Db,
  token: string,
): Promise<{ location: Location; charge: Charge | undefined } | undefined> {
  const [row] = await locationWithCharge(db, { token });
  if (!row) return undefined;
  const { loc_id, loc_company_id, loc_kind, loc_token, loc_charge_id, loc_created_at, loc_linked_once, ...charge } =
    row;
  const location: Location = {
    id: Number(loc_id),
    company_id: loc_company_id,
    kind: loc_kind,
    token: loc_token,
    charge_id: loc_charge_id,
    created_at: loc_created_at,
    linked_once: loc_linked_once,
  };
  return { location, charge: charge.id === null ? undefined : (charge as Charge) };
}

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

function selectLocation(db: Db, companyId: string, id: number) {
  return db.selectFrom('locations').selectAll().where('company_id', '=', companyId).where('id', '=', id);
}

export async function findLocation(db: Db, companyId: string, id: number): Promise<Location | undefined> {
  return selectLocation(db, companyId, id).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockLocation(db: Db, companyId: string, id: number): Promise<Location | undefined> {
  return selectLocation(db, companyId, id).forUpdate().executeTakeFirst();
}

export async function findLocationById(db: Db, id: number): Promise<Location | undefined> {
  return db.selectFrom('locations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setLocationCharge(db: Db, locationId: number, chargeId: string | null): Promise<Location> {
  return db
    .updateTable('locations')
    .set(chargeId === null ? { charge_id: null } : { charge_id: chargeId, linked_once: true })
    .where('id', '=', locationId)
    .returningAll()
    .executeTakeFirstOrThrow();
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
