// All SQL of the recurrence family: recurrence locations, recurrences and confirmation requests.
// Recurring charges are in cobr.repository.ts.
import { type Insertable, sql, type Updateable } from 'kysely';
import { companyNowSql, companyTodaySql } from '../db/clock-sql';
import type {
  Company,
  Db,
  RecBody,
  RecLocation,
  RecRequest,
  RecRequestsTable,
  RecStatus,
  Recurrence,
  RecurrencesTable,
} from '../db/schema';
import { pagedRows } from '../db/paging';

// Locations -------------------------------------------------------------------------------

export async function insertRecLocation(
  db: Db,
  loc: { company_id: string; token: string; created_at: Date },
): Promise<RecLocation> {
  return db.insertInto('rec_locations').values(loc).returningAll().executeTakeFirstOrThrow();
}

function selectRecLocation(db: Db, companyId: string, id: number) {
  return db.selectFrom('rec_locations').selectAll().where('company_id', '=', companyId).where('id', '=', id);
}

export async function findRecLocation(db: Db, companyId: string, id: number): Promise<RecLocation | undefined> {
  return selectRecLocation(db, companyId, id).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockRecLocation(db: Db, companyId: string, id: number): Promise<RecLocation | undefined> {
  return selectRecLocation(db, companyId, id).forUpdate().executeTakeFirst();
}

export async function findRecLocationById(db: Db, id: number): Promise<RecLocation | undefined> {
  return db.selectFrom('rec_locations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findRecLocationByToken(db: Db, token: string): Promise<RecLocation | undefined> {
  return db.selectFrom('rec_locations').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function setRecLocationRec(db: Db, id: number, idRec: string | null): Promise<void> {
  await db
    .updateTable('rec_locations')
    .set(idRec ? { id_rec: idRec, linked_once: true } : { id_rec: null })
    .where('id', '=', id)
    .execute();
}

export async function recLocationsById(db: Db, ids: number[]): Promise<Map<number, RecLocation>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('rec_locations').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r]));
}

export interface RecLocationListFilter {
  companyId: string;
  from?: Date;
  to?: Date;
  idRecPresent?: boolean;
  convenio?: string;
}

function recLocationListQuery(db: Db, f: RecLocationListFilter) {
  let q = db.selectFrom('rec_locations').where('rec_locations.company_id', '=', f.companyId);
  if (f.from) q = q.where('rec_locations.created_at', '>=', f.from);
  if (f.to) q = q.where('rec_locations.created_at', '<=', f.to);
  if (f.idRecPresent !== undefined) q = q.where('rec_locations.id_rec', f.idRecPresent ? 'is not' : 'is', null);
  if (f.convenio !== undefined) {
    const convenio = f.convenio;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('recurrences')
          .select('recurrences.id_rec')
          .whereRef('recurrences.id_rec', '=', 'rec_locations.id_rec')
          .where('recurrences.convenio', '=', convenio),
      ),
    );
  }
  return q;
}

export async function listRecLocations(
  db: Db,
  filter: RecLocationListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: RecLocation[]; total: number }> {
  const list = recLocationListQuery(db, filter)
    .selectAll('rec_locations')
    .orderBy('rec_locations.created_at')
    .orderBy('rec_locations.id');
  const countPastEnd = async () =>
    Number(
      (
        await recLocationListQuery(db, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return pagedRows(list, { skip: offset, limit }, { countPastEnd });
}

// Recurrences -----------------------------------------------------------------------------

export async function insertRecurrence(db: Db, rec: Insertable<RecurrencesTable>): Promise<Recurrence> {
  return db.insertInto('recurrences').values(rec).returningAll().executeTakeFirstOrThrow();
}

function selectRecurrence(db: Db, companyId: string, idRec: string) {
  return db.selectFrom('recurrences').selectAll().where('company_id', '=', companyId).where('id_rec', '=', idRec);
}

export async function findRecurrence(db: Db, companyId: string, idRec: string): Promise<Recurrence | undefined> {
  return selectRecurrence(db, companyId, idRec).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockRecurrence(db: Db, companyId: string, idRec: string): Promise<Recurrence | undefined> {
  return selectRecurrence(db, companyId, idRec).forUpdate().executeTakeFirst();
}

// Any company's recurrence (the sandbox's payer side and the open payload location).
function selectRecurrenceAnyCompany(db: Db, idRec: string) {
  return db.selectFrom('recurrences').selectAll().where('id_rec', '=', idRec);
}

export async function findRecurrenceAnyCompany(db: Db, idRec: string): Promise<Recurrence | undefined> {
  return selectRecurrenceAnyCompany(db, idRec).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockRecurrenceAnyCompany(db: Db, idRec: string): Promise<Recurrence | undefined> {
  return selectRecurrenceAnyCompany(db, idRec).forUpdate().executeTakeFirst();
}

// A recurrence read with its location and the names its QR code shows, in one statement.
export interface RecurrenceInContext {
  rec: Recurrence;
  loc: RecLocation | undefined;
  company: Pick<Company, 'name' | 'trade_name'>;
}

export async function findRecurrenceInContext(
  db: Db,
  companyId: string,
  idRec: string,
): Promise<RecurrenceInContext | undefined> {
  const row = await db
    .selectFrom('recurrences')
    .innerJoin('companies', 'companies.id', 'recurrences.company_id')
    .leftJoin('rec_locations', 'rec_locations.id', 'recurrences.location_id')
    .selectAll('recurrences')
    .select([
      'companies.name as co_name',
      'companies.trade_name as co_trade_name',
      'rec_locations.token as loc_token',
      'rec_locations.id_rec as loc_id_rec',
      'rec_locations.linked_once as loc_linked_once',
      'rec_locations.created_at as loc_created_at',
    ])
    .where('recurrences.company_id', '=', companyId)
    .where('recurrences.id_rec', '=', idRec)
    .executeTakeFirst();
  if (!row) return undefined;
  const { co_name, co_trade_name, loc_token, loc_id_rec, loc_linked_once, loc_created_at, ...rec } = row;
  const loc =
    rec.location_id === null || loc_token === null
      ? undefined
      : {
          id: rec.location_id,
          company_id: rec.company_id,
          token: loc_token,
          id_rec: loc_id_rec,
          linked_once: loc_linked_once!,
          created_at: loc_created_at!,
        };
  return { rec, loc, company: { name: co_name, trade_name: co_trade_name } };
}

// The status and location token of these recurrences of the company, with the names their QR
// code shows (a subscription's view of its recurrence).
export async function recurrencesWithLocationTokens(db: Db, companyId: string, idRecs: string[]) {
  if (idRecs.length === 0) return [];
  return db
    .selectFrom('recurrences')
    .innerJoin('companies', 'companies.id', 'recurrences.company_id')
    .leftJoin('rec_locations', 'rec_locations.id', 'recurrences.location_id')
    .select([
      'recurrences.id_rec',
      'recurrences.status',
      'rec_locations.token as loc_token',
      'companies.name as co_name',
      'companies.trade_name as co_trade_name',
    ])
    .where('recurrences.company_id', '=', companyId)
    .where('recurrences.id_rec', 'in', idRecs)
    .execute();
}

export async function updateRecurrence(
  db: Db,
  idRec: string,
  changes: Updateable<RecurrencesTable>,
): Promise<Recurrence> {
  return db
    .updateTable('recurrences')
    .set(changes)
    .where('id_rec', '=', idRec)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface RecListFilter {
  companyId: string;
  from?: Date;
  to?: Date;
  debtorTaxId?: string;
  locationPresent?: boolean;
  status?: string;
  convenio?: string;
}

function recListQuery(db: Db, f: RecListFilter) {
  let q = db.selectFrom('recurrences').where('company_id', '=', f.companyId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<=', f.to);
  if (f.debtorTaxId) q = q.where('debtor_tax_id', '=', f.debtorTaxId);
  if (f.locationPresent !== undefined) q = q.where('location_id', f.locationPresent ? 'is not' : 'is', null);
  if (f.status) q = q.where('status', '=', f.status as RecStatus);
  if (f.convenio !== undefined) q = q.where('convenio', '=', f.convenio);
  return q;
}

export async function listRecurrences(
  db: Db,
  filter: RecListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: Recurrence[]; total: number }> {
  const list = recListQuery(db, filter).selectAll().orderBy('created_at').orderBy('id_rec');
  const countPastEnd = async () =>
    Number(
      (
        await recListQuery(db, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return pagedRows(list, { skip: offset, limit }, { countPastEnd });
}

// Confirmation requests -------------------------------------------------------------------

export async function insertRecRequest(db: Db, row: Insertable<RecRequestsTable>): Promise<RecRequest> {
  return db.insertInto('rec_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

// A confirmation request with the state of its recurrence, in one statement.
export type RecState = Pick<Recurrence, 'id_rec' | 'status' | 'journey'> & { body: Pick<RecBody, 'ativacao'> };

function selectRecRequestWithRec(db: Db, companyId: string, id: string) {
  return db
    .selectFrom('rec_requests')
    .innerJoin('recurrences', 'recurrences.id_rec', 'rec_requests.id_rec')
    .selectAll('rec_requests')
    .select([
      'recurrences.status as rec_status',
      'recurrences.journey as rec_journey',
      sql<RecBody['ativacao'] | null>`recurrences.body->'ativacao'`.as('rec_ativacao'),
    ])
    .where('rec_requests.company_id', '=', companyId)
    .where('rec_requests.id', '=', id);
}

type RecRequestWithRecRow = Awaited<ReturnType<ReturnType<typeof selectRecRequestWithRec>['executeTakeFirstOrThrow']>>;

function withRec(row: RecRequestWithRecRow | undefined): { request: RecRequest; rec: RecState } | undefined {
  if (!row) return undefined;
  const { rec_status, rec_journey, rec_ativacao, ...request } = row;
  const body = rec_ativacao ? { ativacao: rec_ativacao } : {};
  return { request, rec: { id_rec: request.id_rec, status: rec_status, journey: rec_journey, body } };
}

export async function findRecRequestWithRec(db: Db, companyId: string, id: string) {
  return withRec(await selectRecRequestWithRec(db, companyId, id).executeTakeFirst());
}

// The same, the request locked FOR UPDATE until the transaction ends.
export async function lockRecRequestWithRec(db: Db, companyId: string, id: string) {
  return withRec(await selectRecRequestWithRec(db, companyId, id).forUpdate('rec_requests').executeTakeFirst());
}

function selectRequestsOfRecurrence(db: Db, idRec: string) {
  return db.selectFrom('rec_requests').selectAll().where('id_rec', '=', idRec).orderBy('created_at').orderBy('id');
}

export async function requestsOfRecurrence(db: Db, idRec: string): Promise<RecRequest[]> {
  return selectRequestsOfRecurrence(db, idRec).execute();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockRequestsOfRecurrence(db: Db, idRec: string): Promise<RecRequest[]> {
  return selectRequestsOfRecurrence(db, idRec).forUpdate().execute();
}

export async function requestsOfRecurrences(db: Db, idRecs: string[]): Promise<Map<string, RecRequest[]>> {
  const out = new Map<string, RecRequest[]>();
  if (idRecs.length === 0) return out;
  const rows = await db
    .selectFrom('rec_requests')
    .selectAll()
    .where('id_rec', 'in', idRecs)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) out.set(r.id_rec, [...(out.get(r.id_rec) ?? []), r]);
  return out;
}

export async function updateRecRequest(db: Db, id: string, changes: Updateable<RecRequestsTable>): Promise<RecRequest> {
  return db.updateTable('rec_requests').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// Requests still open whose expiry passed (other processes skip the rows this one holds).
// Recurrences never approved whose first date has passed by their company's clock, with no
// confirmation request still open (one may yet be accepted until it expires itself).
export async function claimStaleRecurrences(db: Db, limit: number): Promise<Recurrence[]> {
  return db
    .selectFrom('recurrences')
    .selectAll()
    .where('status', '=', 'CRIADA')
    .where(
      sql<boolean>`(body->'calendario'->>'dataInicial') < ${companyTodaySql(sql.ref('recurrences.company_id'))}::text`,
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('rec_requests')
            .select('rec_requests.id')
            .whereRef('rec_requests.id_rec', '=', 'recurrences.id_rec')
            .where('rec_requests.status', 'in', ['CRIADA', 'ENVIADA', 'RECEBIDA']),
        ),
      ),
    )
    .orderBy('id_rec')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function claimExpiredRequests(db: Db, limit: number): Promise<RecRequest[]> {
  return db
    .selectFrom('rec_requests')
    .selectAll()
    .where('status', 'in', ['CRIADA', 'ENVIADA', 'RECEBIDA'])
    .where('expires_at', '<', companyNowSql(sql.ref('rec_requests.company_id')))
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}
