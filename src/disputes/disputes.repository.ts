// All SQL of disputes (the received Pix they are opened against: transactions.repository).
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db, Dispute, DisputeStatus, StoredEvidence } from '../db/schema';
import { pagedRows } from '../db/paging';

export async function insertDispute(
  db: Db,
  row: Omit<Dispute, 'evidences'> & { evidences: StoredEvidence[] },
): Promise<Dispute> {
  return db
    .insertInto('disputes')
    .values({ ...row, evidences: JSON.stringify(row.evidences) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// companyId undefined: any company's (the sandbox's payer side).
function selectDispute(db: Db, endToEndId: string, companyId: string | undefined) {
  let q = db.selectFrom('disputes').selectAll().where('end_to_end_id', '=', endToEndId);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  return q;
}

export async function findDispute(
  db: Db,
  endToEndId: string,
  companyId: string | undefined,
): Promise<Dispute | undefined> {
  return selectDispute(db, endToEndId, companyId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockDispute(
  db: Db,
  endToEndId: string,
  companyId: string | undefined,
): Promise<Dispute | undefined> {
  return selectDispute(db, endToEndId, companyId).forUpdate().executeTakeFirst();
}

export async function updateDispute(
  db: Db,
  id: string,
  set: { status?: DisputeStatus; evidences?: StoredEvidence[]; updated_at: Date },
): Promise<Dispute> {
  return db
    .updateTable('disputes')
    .set({
      ...(set.status ? { status: set.status } : {}),
      ...(set.evidences ? { evidences: JSON.stringify(set.evidences) } : {}),
      updated_at: set.updated_at,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Newest first; start inclusive, end exclusive (on created_at).
export async function listDisputes(
  db: Db,
  companyId: string,
  filter: { start?: Date; end?: Date },
  skip: number,
  limit: number,
): Promise<{ rows: Dispute[]; total: number }> {
  const list = disputesOf(db.selectFrom('disputes').selectAll(), companyId, filter);
  const countPastEnd = async () => {
    const counted = disputesOf(
      db.selectFrom('disputes').select((eb) => eb.fn.countAll<number>().as('n')),
      companyId,
      filter,
    );
    return Number((await counted.executeTakeFirstOrThrow()).n);
  };
  return pagedRows(list.orderBy('created_at', 'desc').orderBy('id', 'desc'), { skip, limit }, { countPastEnd });
}

// The disputes of a list's filter, on a select of its rows or of their count.
function disputesOf<O>(
  query: SelectQueryBuilder<Database, 'disputes', O>,
  companyId: string,
  filter: { start?: Date; end?: Date },
) {
  let q = query.where('company_id', '=', companyId);
  if (filter.start) q = q.where('created_at', '>=', filter.start);
  if (filter.end) q = q.where('created_at', '<', filter.end);
  return q;
}
