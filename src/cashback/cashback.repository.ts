// All SQL of exclusive (fidelity) cashbacks and of the received Pix that use them.
import { sql } from 'kysely';
import type { Cashback, Db } from '../db/schema';

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

export async function markUsed(
  db: Db,
  id: string,
  used: { transactionId: string; paidValue: number; returnId: string | null },
  at: Date,
): Promise<void> {
  await db
    .updateTable('cashbacks')
    .set({
      status: 'USED',
      used_transaction_id: used.transactionId,
      paid_value: used.paidValue,
      return_id: used.returnId,
      used_at: at,
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
}

// Pending cashbacks whose customer has paid the company since their creation (due), oldest
// first, locked; other processes skip them.
export async function claimDue(db: Db, limit: number): Promise<Cashback[]> {
  return db
    .selectFrom('cashbacks as c')
    .selectAll('c')
    .where('c.status', '=', 'PENDING')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('transactions as t')
          .select(sql`1`.as('one'))
          .whereRef('t.company_id', '=', 'c.company_id')
          .where('t.type', '=', 'PIX_IN')
          .whereRef('t.created_at', '>=', 'c.created_at')
          .where(sql<boolean>`coalesce(t.details->'payer'->>'taxID', t.details->'payer'->>'taxId') = c.tax_id`),
      ),
    )
    .orderBy('c.created_at')
    .orderBy('c.id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function insertCashback(
  db: Db,
  row: Omit<Cashback, 'used_transaction_id' | 'used_at' | 'status' | 'paid_value' | 'return_id'>,
): Promise<Cashback> {
  return db
    .insertInto('cashbacks')
    .values({ ...row, status: 'PENDING', used_transaction_id: null, used_at: null, paid_value: null, return_id: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}
