// All SQL of account registers (BAAS onboarding of companies). A KYC onboarding opens its
// register when it is submitted and the analysis settles it; deleted ones are kept, marked
// deleted_at.
import type { AccountRegisterRow, Db, NewAccountRegisterRow } from '../db/schema';

export async function insertAccountRegister(db: Db, row: NewAccountRegisterRow): Promise<AccountRegisterRow> {
  return db.insertInto('account_registers').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAccountRegister(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<AccountRegisterRow | undefined> {
  return db
    .selectFrom('account_registers')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

// A live register of this tax id (the newest), for reads that name it by CNPJ.
export async function findAccountRegisterByTaxId(
  db: Db,
  companyId: string,
  taxId: string,
): Promise<AccountRegisterRow | undefined> {
  return db
    .selectFrom('account_registers')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('tax_id', '=', taxId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

// Opens the register of a submitted onboarding; nothing when a live one has its correlationID.
export async function openAccountRegister(db: Db, row: NewAccountRegisterRow): Promise<void> {
  await db
    .insertInto('account_registers')
    .values(row)
    .onConflict((oc) => oc.columns(['company_id', 'correlation_id']).where('deleted_at', 'is', null).doNothing())
    .execute();
}

// The analysis of a PENDING register (APPROVED or REJECTED); a deleted or settled one is left.
export async function settleAccountRegister(
  db: Db,
  companyId: string,
  correlationId: string,
  status: 'APPROVED' | 'REJECTED',
  at: Date,
): Promise<void> {
  await db
    .updateTable('account_registers')
    .set({ status, updated_at: at })
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .where('status', '=', 'PENDING')
    .where('deleted_at', 'is', null)
    .execute();
}

// Marks a PENDING register deleted; false when it no longer is one (deleted or moved on meanwhile).
export async function deletePendingRegister(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('account_registers')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
