// All SQL of funds recoveries (MED); the sent transactions they are opened for are read
// through transactions.repository and payments.repository.
import { type WritePart, withParts } from '../db/together';
import type { Db, FundsRecovery, FundsRecoveryUpdate, NewFundsRecovery, StoredRecoveryEvent } from '../db/schema';

export async function findByTransaction(db: Db, transactionId: string): Promise<FundsRecovery | undefined> {
  return db.selectFrom('funds_recoveries').selectAll().where('transaction_id', '=', transactionId).executeTakeFirst();
}

// `also`: writes that go with it in the same statement (its event).
export async function insertRecovery(db: Db, row: NewFundsRecovery, also: WritePart[] = []): Promise<FundsRecovery> {
  return withParts(db, also).insertInto('funds_recoveries').values(row).returningAll().executeTakeFirstOrThrow();
}

// companyId undefined: any company's (the sandbox's analysis moves).
function selectRecovery(db: Db, id: string, companyId: string | undefined) {
  let q = db.selectFrom('funds_recoveries').selectAll().where('id', '=', id);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  return q;
}

// The same row, locked FOR UPDATE until the transaction ends.
export async function lockRecovery(
  db: Db,
  id: string,
  companyId: string | undefined,
): Promise<FundsRecovery | undefined> {
  return selectRecovery(db, id, companyId).forUpdate().executeTakeFirst();
}

export async function updateRecovery(
  db: Db,
  id: string,
  set: Omit<FundsRecoveryUpdate, 'events'> & { events: StoredRecoveryEvent[] },
  also: WritePart[] = [],
): Promise<FundsRecovery> {
  return withParts(db, also)
    .updateTable('funds_recoveries')
    .set({ ...set, events: JSON.stringify(set.events) })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// A recovery the company reported or whose Pix it received (the receiving side reads it too).
export async function findRecoveryOfParty(db: Db, id: string, companyId: string): Promise<FundsRecovery | undefined> {
  return db
    .selectFrom('funds_recoveries')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('company_id', '=', companyId), eb('receiver_company_id', '=', companyId)]))
    .executeTakeFirst();
}
