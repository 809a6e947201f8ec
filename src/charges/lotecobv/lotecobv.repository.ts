// All SQL of batches of due-date charges (lotecobv) and their items.
import type { CobvBatch, CobvBatchItem, CobvBatchItemStatus, Db } from '../../db/schema';
import type { BatchItemProblem, BatchItemRequest } from '../../db/documents/charge-body';
import { pagedRows } from '../../db/paging';

export async function findBatchItemByTxid(db: Db, companyId: string, txid: string): Promise<CobvBatchItem | undefined> {
  return db
    .selectFrom('cobv_batch_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('txid', '=', txid)
    .executeTakeFirst();
}

function selectBatch(db: Db, companyId: string, id: number) {
  return db.selectFrom('cobv_batches').selectAll().where('company_id', '=', companyId).where('id', '=', id);
}

export async function findBatch(db: Db, companyId: string, id: number): Promise<CobvBatch | undefined> {
  return selectBatch(db, companyId, id).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockBatch(db: Db, companyId: string, id: number): Promise<CobvBatch | undefined> {
  return selectBatch(db, companyId, id).forUpdate().executeTakeFirst();
}

export async function insertBatch(db: Db, batch: CobvBatch): Promise<void> {
  await db.insertInto('cobv_batches').values(batch).execute();
}

export async function updateBatch(
  db: Db,
  companyId: string,
  id: number,
  changes: { description?: string; updated_at: Date },
): Promise<void> {
  await db.updateTable('cobv_batches').set(changes).where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function itemsOfBatch(db: Db, companyId: string, batchId: number): Promise<CobvBatchItem[]> {
  return db
    .selectFrom('cobv_batch_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('batch_id', '=', batchId)
    .orderBy('position')
    .execute();
}

export async function itemsOfBatches(
  db: Db,
  companyId: string,
  batchIds: number[],
): Promise<Map<number, CobvBatchItem[]>> {
  const out = new Map<number, CobvBatchItem[]>();
  if (batchIds.length === 0) return out;
  const rows = await db
    .selectFrom('cobv_batch_items')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('batch_id', 'in', batchIds)
    .orderBy('batch_id')
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const id = Number(row.batch_id);
    out.set(id, [...(out.get(id) ?? []), row]);
  }
  return out;
}

// Txids among `txids` that already have an item in any batch of the company.
export async function txidsInBatches(db: Db, companyId: string, txids: string[]): Promise<string[]> {
  if (txids.length === 0) return [];
  const rows = await db
    .selectFrom('cobv_batch_items')
    .select('txid')
    .where('company_id', '=', companyId)
    .where('txid', 'in', txids)
    .execute();
  return rows.map((r) => r.txid);
}

export async function insertItems(db: Db, items: Array<Omit<CobvBatchItem, 'problem'>>): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('cobv_batch_items')
    .values(items.map((i) => ({ ...i, request: JSON.stringify(i.request), problem: null })))
    .execute();
}

export async function setItemState(
  db: Db,
  companyId: string,
  txid: string,
  state: { status: CobvBatchItemStatus; problem: BatchItemProblem | null; request?: BatchItemRequest },
): Promise<void> {
  await db
    .updateTable('cobv_batch_items')
    .set({
      status: state.status,
      problem: state.problem === null ? null : JSON.stringify(state.problem),
      ...(state.request ? { request: JSON.stringify(state.request) } : {}),
    })
    .where('company_id', '=', companyId)
    .where('txid', '=', txid)
    .execute();
}

export async function listBatches(
  db: Db,
  companyId: string,
  from: Date | undefined,
  to: Date | undefined,
  offset: number,
  limit: number,
) {
  let q = db.selectFrom('cobv_batches').where('company_id', '=', companyId);
  if (from) q = q.where('created_at', '>=', from);
  if (to) q = q.where('created_at', '<=', to);
  const countPastEnd = async () =>
    Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return pagedRows(q.selectAll().orderBy('created_at').orderBy('id'), { skip: offset, limit }, { countPastEnd });
}
