// All SQL of received Pix and their devolutions.
import { type SelectQueryBuilder, sql } from 'kysely';
import { pagedRows } from '../db/paging';
import type {
  Database,
  Db,
  DevolucaoNatureza,
  NewPixDevolution,
  NewPixReceived,
  PixDevolution,
  PixDevolutionUpdate,
  PixReceived,
} from '../db/schema';

// Serializes the transactions that take the same key until they end (the same Pix arriving
// twice at once, two refunds with one correlationID).
export async function advisoryLock(trx: Db, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

export async function lockEndToEndId(trx: Db, endToEndId: string): Promise<void> {
  await advisoryLock(trx, `pix-in:${endToEndId}`);
}

// Any company's received Pix (idempotency of settlements; never answered to a caller as is).
export async function findReceived(db: Db, endToEndId: string): Promise<PixReceived | undefined> {
  return db.selectFrom('pix_received').selectAll().where('end_to_end_id', '=', endToEndId).executeTakeFirst();
}

export async function insertReceived(db: Db, row: NewPixReceived): Promise<PixReceived> {
  return db.insertInto('pix_received').values(row).returningAll().executeTakeFirstOrThrow();
}

// Stores a received Pix unless its end-to-end id is settled already (then undefined): a
// concurrent settlement of the same id waits here for the first and finds it done.
export async function claimReceived(db: Db, row: NewPixReceived): Promise<PixReceived | undefined> {
  return db
    .insertInto('pix_received')
    .values(row)
    .onConflict((oc) => oc.column('end_to_end_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

// Any company's received Pix, locked FOR UPDATE until the transaction ends (a funds recovery
// of the payer reaching the account that received it).
export async function lockReceived(db: Db, endToEndId: string): Promise<PixReceived | undefined> {
  return db
    .selectFrom('pix_received')
    .selectAll()
    .where('end_to_end_id', '=', endToEndId)
    .forUpdate()
    .executeTakeFirst();
}

function selectReceivedOfCompany(db: Db, companyId: string, endToEndId: string) {
  return db
    .selectFrom('pix_received')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('end_to_end_id', '=', endToEndId);
}

export async function findReceivedOfCompany(
  db: Db,
  companyId: string,
  endToEndId: string,
): Promise<PixReceived | undefined> {
  return selectReceivedOfCompany(db, companyId, endToEndId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockReceivedOfCompany(
  db: Db,
  companyId: string,
  endToEndId: string,
): Promise<PixReceived | undefined> {
  return selectReceivedOfCompany(db, companyId, endToEndId).forUpdate().executeTakeFirst();
}

// The Pix that paid a charge (a charge is completed by one Pix).
function selectReceivedOfCharge(db: Db, companyId: string, chargeId: string) {
  return db
    .selectFrom('pix_received')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('charge_id', '=', chargeId)
    .orderBy('settled_at')
    .limit(1);
}

export async function findReceivedOfCharge(
  db: Db,
  companyId: string,
  chargeId: string,
): Promise<PixReceived | undefined> {
  return selectReceivedOfCharge(db, companyId, chargeId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockReceivedOfCharge(
  db: Db,
  companyId: string,
  chargeId: string,
): Promise<PixReceived | undefined> {
  return selectReceivedOfCharge(db, companyId, chargeId).forUpdate().executeTakeFirst();
}

export interface ReceivedListFilter {
  companyId: string;
  from?: Date;
  to?: Date;
  txid?: string;
  txidPresent?: boolean;
  devolutionPresent?: boolean;
  payerTaxId?: string;
}

function receivedListQuery(db: Db, f: ReceivedListFilter) {
  let q = db.selectFrom('pix_received').where('company_id', '=', f.companyId);
  if (f.from) q = q.where('settled_at', '>=', f.from);
  if (f.to) q = q.where('settled_at', '<=', f.to);
  if (f.txid !== undefined) q = q.where('txid', '=', f.txid);
  if (f.txidPresent !== undefined) q = q.where('txid', f.txidPresent ? 'is not' : 'is', null);
  if (f.payerTaxId !== undefined) q = q.where('payer_tax_id', '=', f.payerTaxId);
  if (f.devolutionPresent !== undefined) {
    const exists = sql<boolean>`exists (select 1 from pix_devolutions d where d.end_to_end_id = pix_received.end_to_end_id)`;
    q = q.where(f.devolutionPresent ? exists : sql<boolean>`not ${exists}`);
  }
  return q;
}

export async function listReceived(
  db: Db,
  filter: ReceivedListFilter,
  offset: number,
  limit: number,
): Promise<{ rows: PixReceived[]; total: number }> {
  const list = receivedListQuery(db, filter).selectAll().orderBy('settled_at').orderBy('end_to_end_id');
  const countPastEnd = async () => {
    const counted = receivedListQuery(db, filter).select((eb) => eb.fn.countAll<number>().as('n'));
    return Number((await counted.executeTakeFirstOrThrow()).n);
  };
  return pagedRows(list, { skip: offset, limit }, { countPastEnd });
}

// Devolutions -------------------------------------------------------------------------------

export async function insertDevolution(db: Db, row: NewPixDevolution): Promise<PixDevolution> {
  return db.insertInto('pix_devolutions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateDevolution(
  db: Db,
  endToEndId: string,
  id: string,
  changes: PixDevolutionUpdate,
): Promise<PixDevolution> {
  return db
    .updateTable('pix_devolutions')
    .set(changes)
    .where('end_to_end_id', '=', endToEndId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findDevolution(
  db: Db,
  companyId: string,
  endToEndId: string,
  id: string,
): Promise<PixDevolution | undefined> {
  return db
    .selectFrom('pix_devolutions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('end_to_end_id', '=', endToEndId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findDevolutionByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<PixDevolution | undefined> {
  return db
    .selectFrom('pix_devolutions')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .executeTakeFirst();
}

// The devolutions of some Pix, oldest first, grouped by end-to-end id.
// The first Pix that paid each of these charges, with its devolutions, in one statement.
export async function paymentsOfCharges(
  db: Db,
  companyId: string,
  chargeIds: string[],
): Promise<Map<string, { pix: PixReceived; devolutions: PixDevolution[] }>> {
  const out = new Map<string, { pix: PixReceived; devolutions: PixDevolution[] }>();
  if (chargeIds.length === 0) return out;
  const rows = await db
    .selectFrom('pix_received')
    .selectAll('pix_received')
    .select((eb) =>
      eb
        .selectFrom('pix_devolutions')
        .select(sql<PixDevolution[]>`coalesce(json_agg(pix_devolutions.* order by requested_at, id), '[]')`.as('d'))
        .whereRef('pix_devolutions.end_to_end_id', '=', 'pix_received.end_to_end_id')
        .as('devolutions'),
    )
    .where('company_id', '=', companyId)
    .where('charge_id', 'in', chargeIds)
    .orderBy('settled_at')
    .execute();
  for (const { devolutions, ...pix } of rows) {
    if (!pix.charge_id || out.has(pix.charge_id)) continue;
    out.set(pix.charge_id, { pix, devolutions: (devolutions ?? []).map(devolutionFromJson) });
  }
  return out;
}

// A devolution row as json_agg gives it (timestamps as text) with its types back.
function devolutionFromJson(row: PixDevolution): PixDevolution {
  const at = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return { ...row, requested_at: at(row.requested_at)!, settled_at: at(row.settled_at) } as PixDevolution;
}

export async function devolutionsOf(db: Db, endToEndIds: string[]): Promise<Map<string, PixDevolution[]>> {
  const out = new Map<string, PixDevolution[]>(endToEndIds.map((e) => [e, []]));
  if (endToEndIds.length === 0) return out;
  const rows = await db
    .selectFrom('pix_devolutions')
    .selectAll()
    .where('end_to_end_id', 'in', endToEndIds)
    .orderBy('requested_at')
    .orderBy('id')
    .execute();
  for (const r of rows) out.get(r.end_to_end_id)!.push(r);
  return out;
}

// What the devolutions of a Pix that were not refused add up to, by nature.
export async function devolvedByNature(db: Db, endToEndId: string): Promise<Record<DevolucaoNatureza, number>> {
  const rows = await db
    .selectFrom('pix_devolutions')
    .select(['natureza', (eb) => eb.fn.sum<number>('value').as('total')])
    .where('end_to_end_id', '=', endToEndId)
    .where('status', '!=', 'NAO_REALIZADO')
    .groupBy('natureza')
    .execute();
  const out: Record<DevolucaoNatureza, number> = { ORIGINAL: 0, RETIRADA: 0, MED_OPERACIONAL: 0, MED_FRAUDE: 0 };
  for (const r of rows) out[r.natureza] = Number(r.total);
  return out;
}

export async function listChargeDevolutions(
  db: Db,
  companyId: string,
  chargeId: string,
  offset: number,
  limit: number,
): Promise<{ rows: PixDevolution[]; total: number }> {
  const base = db.selectFrom('pix_devolutions').where('company_id', '=', companyId).where('charge_id', '=', chargeId);
  const list = base.selectAll().orderBy('requested_at').orderBy('id');
  return pagedRows(list, { skip: offset, limit }, { countPastEnd: () => countOf(base) });
}

// The company's devolutions, newest first (GET /api/v1/refund).
export async function listCompanyDevolutions(
  db: Db,
  companyId: string,
  range: { from?: Date; to?: Date },
  offset: number,
  limit: number,
): Promise<{ rows: PixDevolution[]; total: number }> {
  let base = db.selectFrom('pix_devolutions').where('company_id', '=', companyId);
  if (range.from) base = base.where('requested_at', '>=', range.from);
  if (range.to) base = base.where('requested_at', '<', range.to);
  const list = base.selectAll().orderBy('requested_at', 'desc').orderBy('rtr_id', 'desc');
  return pagedRows(list, { skip: offset, limit }, { countPastEnd: () => countOf(base) });
}

// How many devolutions a list's filter matches (its count past the last page).
async function countOf(base: SelectQueryBuilder<Database, 'pix_devolutions', object>): Promise<number> {
  return Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

// A devolution by its correlationID or, failing that, its id (ids are unique per Pix only:
// the newest one wins).
export async function findDevolutionByAnyId(db: Db, companyId: string, id: string): Promise<PixDevolution | undefined> {
  return (
    (await findDevolutionByCorrelationId(db, companyId, id)) ??
    (await db
      .selectFrom('pix_devolutions')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .orderBy('requested_at', 'desc')
      .limit(1)
      .executeTakeFirst())
  );
}

// Claims the oldest devolution waiting for the rail; other processes skip it while it is held.
export async function claimPendingDevolution(trx: Db): Promise<PixDevolution | undefined> {
  return trx
    .selectFrom('pix_devolutions')
    .selectAll()
    .where('status', '=', 'EM_PROCESSAMENTO')
    .orderBy('requested_at')
    .orderBy('rtr_id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

// Parties -----------------------------------------------------------------------------------

// The Pix that paid a charge (by its txid), each with its devolutions, in one statement.
export async function findReceivedOfTxidWithDevolutions(
  db: Db,
  companyId: string,
  txid: string,
): Promise<{ pix: PixReceived; devolutions: PixDevolution[] }[]> {
  const rows = await db
    .selectFrom('pix_received as p')
    .where('p.company_id', '=', companyId)
    .where('p.txid', '=', txid)
    .selectAll('p')
    .select(
      sql<PixDevolution[] | null>`(select json_agg(d order by d.requested_at, d.id) from pix_devolutions d
        where d.company_id = p.company_id and d.end_to_end_id = p.end_to_end_id)`.as('devolution_rows'),
    )
    .orderBy('p.settled_at')
    .limit(20)
    .execute();
  return rows.map(({ devolution_rows, ...pix }) => ({
    pix: pix as PixReceived,
    devolutions: (devolution_rows ?? []).map((d) => ({
      ...d,
      requested_at: new Date(d.requested_at),
      settled_at: d.settled_at === null ? null : new Date(d.settled_at),
    })),
  }));
}
