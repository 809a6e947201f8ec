// All SQL of the key-lookup token bucket (one row per company) and its log (one row per
// refill or lookup; a lookup's row keeps its end-to-end id and what it answered).
import type { Db, NewPixKeyTokenLogRow, PixKeyBucketRow, PixKeyTokenLogRow } from '../db/schema';
import { pagedRows } from '../db/paging';

// Locks the company's bucket row, creating it full when missing.
export async function lockBucket(
  db: Db,
  companyId: string,
  fresh: { tokens: number; maxTokens: number; refillRate: number; at: Date },
): Promise<PixKeyBucketRow> {
  // One statement: a conflicting insert updates (and so locks) the row and answers it.
  return db
    .insertInto('pix_key_buckets')
    .values({
      company_id: companyId,
      tokens: fresh.tokens,
      max_tokens: fresh.maxTokens,
      refill_rate: fresh.refillRate,
      refilled_at: fresh.at,
    })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ company_id: (eb) => eb.ref('excluded.company_id') }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// The bucket's new state and its log rows (a refill, a lookup), in one statement.
export async function saveBucketWithLogs(
  db: Db,
  companyId: string,
  state: { tokens: number; refilledAt: Date },
  logs: NewPixKeyTokenLogRow[],
): Promise<void> {
  const update = db
    .updateTable('pix_key_buckets')
    .set({ tokens: state.tokens, refilled_at: state.refilledAt })
    .where('company_id', '=', companyId);
  if (logs.length === 0) {
    await update.execute();
    return;
  }
  await db
    .with('saved', () => update)
    .insertInto('pix_key_token_logs')
    .values(logs)
    .execute();
}

export async function findBucket(db: Db, companyId: string): Promise<PixKeyBucketRow | undefined> {
  return db.selectFrom('pix_key_buckets').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

export async function saveBucket(db: Db, companyId: string, tokens: number, refilledAt: Date): Promise<void> {
  await db
    .updateTable('pix_key_buckets')
    .set({ tokens, refilled_at: refilledAt })
    .where('company_id', '=', companyId)
    .execute();
}

export async function insertLog(db: Db, log: NewPixKeyTokenLogRow): Promise<PixKeyTokenLogRow> {
  return db.insertInto('pix_key_token_logs').values(log).returningAll().executeTakeFirstOrThrow();
}

export async function listLogs(
  db: Db,
  companyId: string,
  accountId: string | undefined,
  skip: number,
  limit: number,
): Promise<{ rows: PixKeyTokenLogRow[]; total: number }> {
  let q = db.selectFrom('pix_key_token_logs').where('company_id', '=', companyId);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  const countPastEnd = async () =>
    Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return pagedRows(q.selectAll().orderBy('id', 'desc'), { skip, limit }, { countPastEnd });
}

// A lookup of this company by its end-to-end id.
export async function findLookup(
  db: Db,
  companyId: string,
  endToEndId: string,
): Promise<PixKeyTokenLogRow | undefined> {
  return db
    .selectFrom('pix_key_token_logs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('end_to_end_id', '=', endToEndId)
    .where('operation', '=', 'REMOVE')
    .executeTakeFirst();
}
