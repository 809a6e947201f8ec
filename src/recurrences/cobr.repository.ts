// All SQL of recurring charges (cobr).
import { type Insertable, type Updateable, sql } from 'kysely';
import { companyTodaySql } from '../db/clock-sql';
import type { CobRStatus, Db, RecBody, RecurringCharge, RecurringChargesTable } from '../db/schema';
import { pagedRows } from '../db/paging';

export async function insertCobr(db: Db, row: Insertable<RecurringChargesTable>): Promise<RecurringCharge> {
  return db.insertInto('recurring_charges').values(row).returningAll().executeTakeFirstOrThrow();
}

function selectCobr(db: Db, companyId: string, txid: string) {
  return db.selectFrom('recurring_charges').selectAll().where('company_id', '=', companyId).where('txid', '=', txid);
}

export async function findCobr(db: Db, companyId: string, txid: string): Promise<RecurringCharge | undefined> {
  return selectCobr(db, companyId, txid).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockCobr(db: Db, companyId: string, txid: string): Promise<RecurringCharge | undefined> {
  return selectCobr(db, companyId, txid).forUpdate().executeTakeFirst();
}

// The company's recurring charges with these txids (one statement).
export async function findCobrsByTxids(db: Db, companyId: string, txids: string[]): Promise<RecurringCharge[]> {
  if (txids.length === 0) return [];
  return db
    .selectFrom('recurring_charges')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('txid', 'in', txids)
    .execute();
}

export async function updateCobr(
  db: Db,
  id: string,
  changes: Updateable<RecurringChargesTable>,
): Promise<RecurringCharge> {
  return db.updateTable('recurring_charges').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

// Charges of a recurrence in a cycle that are still alive (not REJEITADA nor CANCELADA).
export async function liveCobrsInCycle(db: Db, idRec: string, cycle: number): Promise<RecurringCharge[]> {
  return db
    .selectFrom('recurring_charges')
    .selectAll()
    .where('id_rec', '=', idRec)
    .where('cycle', '=', cycle)
    .where('status', 'not in', ['REJEITADA', 'CANCELADA'])
    .execute();
}

export async function openCobrsOfRec(db: Db, idRec: string): Promise<RecurringCharge[]> {
  return db
    .selectFrom('recurring_charges')
    .selectAll()
    .where('id_rec', '=', idRec)
    .where('status', 'in', ['CRIADA', 'ATIVA'])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export interface CobrListFilter {
  companyId: string;
  from?: Date;
  to?: Date;
  idRec?: string;
  debtorTaxId?: string;
  status?: string;
  convenio?: string;
}

function cobrListQuery(db: Db, f: CobrListFilter) {
  let q = db
    .selectFrom('recurring_charges')
    .innerJoin('recurrences', 'recurrences.id_rec', 'recurring_charges.id_rec')
    .where('recurring_charges.company_id', '=', f.companyId);
  if (f.from) q = q.where('recurring_charges.created_at', '>=', f.from);
  if (f.to) q = q.where('recurring_charges.created_at', '<=', f.to);
  if (f.idRec) q = q.where('recurring_charges.id_rec', '=', f.idRec);
  if (f.debtorTaxId) q = q.where('recurrences.debtor_tax_id', '=', f.debtorTaxId);
  if (f.status) q = q.where('recurring_charges.status', '=', f.status as CobRStatus);
  if (f.convenio !== undefined) q = q.where('recurrences.convenio', '=', f.convenio);
  return q;
}

export async function listCobrs(db: Db, filter: CobrListFilter, offset: number, limit: number) {
  const list = cobrListQuery(db, filter)
    .selectAll('recurring_charges')
    // The retry policy the charge inherits from its recurrence.
    .select(sql<RecBody['politicaRetentativa']>`recurrences.body->>'politicaRetentativa'`.as('politica'))
    .orderBy('recurring_charges.created_at')
    .orderBy('recurring_charges.id');
  const countPastEnd = async () =>
    Number(
      (
        await cobrListQuery(db, filter)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return pagedRows(list, { skip: offset, limit }, { countPastEnd });
}

// ATIVA charges with an attempt due on or before `today` (other processes skip held rows).
// ATIVA charges with an attempt due by their company's today.
export async function claimDueCobrs(db: Db, limit: number): Promise<RecurringCharge[]> {
  return db
    .selectFrom('recurring_charges')
    .selectAll()
    .where('status', '=', 'ATIVA')
    .where('next_attempt_date', '<=', companyTodaySql(sql.ref('recurring_charges.company_id')))
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

// ATIVA charges with no attempt pending whose retry window (settlement date + 7 days) ended.
export async function claimStaleCobrs(db: Db, windowDays: number, limit: number): Promise<RecurringCharge[]> {
  return db
    .selectFrom('recurring_charges')
    .selectAll()
    .where('status', '=', 'ATIVA')
    .where('next_attempt_date', 'is', null)
    .where('settlement_date', '<', companyTodaySql(sql.ref('recurring_charges.company_id'), -windowDays))
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}
