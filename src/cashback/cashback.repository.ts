// All SQL of exclusive (fidelity) cashbacks and of the received Pix that use them.
import { type Kysely, sql } from 'kysely';
import type { Cashback, Database } from '../db/schema';

type Db = Kysely<Database>;

function selectPending(db: Db, companyId: string, taxId: string) {
  return db
    .selectFrom('cashbacks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('tax_id', '=', taxId)
    .where('status', '=', 'PENDING');
}

export async function findPending(db: Db, companyId: string, taxId: string): Promise<Cashback | undefined> {
  return selectPending(db, companyId, taxId).executeTakeFirst();
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockPending(db: Db, companyId: string, taxId: string): Promise<Cashback | undefined> {
  return selectPending(db, companyId, taxId).forUpdate().executeTakeFirst();
}

export async function findLatest(db: Db, companyId: string, taxId: string): Promise<Cashback | undefined> {
  return db
    .selectFrom('cashbacks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('tax_id', '=', taxId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

// The first Pix the company received from this payer at or after `since`.
export async function findPixFromPayer(
  db: Db,
  companyId: string,
  taxId: string,
  since: Date,
): Promise<{ id: string; created_at: Date } | undefined> {
  return db
    .selectFrom('transactions')
    .select(['id', 'created_at'])
    .where('company_id', '=', companyId)
    .where('type', '=', 'PIX_IN')
    .where('created_at', '>=', since)
    .where(sql<string>`coalesce(details->'payer'->>'taxID', details->'payer'->>'taxId')`, '=', taxId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function markUsed(db: Db, id: string, transactionId: string, at: Date): Promise<void> {
  await db
    .updateTable('cashbacks')
    .set({ status: 'USED', used_transaction_id: transactionId, used_at: at, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function insertCashback(
  db: Db,
  row: Omit<Cashback, 'used_transaction_id' | 'used_at' | 'status'>,
): Promise<Cashback> {
  return db
    .insertInto('cashbacks')
    .values({ ...row, status: 'PENDING', used_transaction_id: null, used_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}
