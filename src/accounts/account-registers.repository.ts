// All SQL of account registers (BAAS onboarding of companies). Registers are created by the
// onboarding flows (insertAccountRegister); deleted ones are kept, marked deleted_at.
import type { Kysely } from 'kysely';
import type { AccountRegisterRow, Database, NewAccountRegisterRow } from '../db/schema';

type Db = Kysely<Database>;

export async function insertAccountRegister(db: Db, row: NewAccountRegisterRow): Promise<AccountRegisterRow> {
  return db.insertInto('account_registers').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findAccountRegister(db: Db, companyId: string, correlationId: string): Promise<AccountRegisterRow | undefined> {
  return db
    .selectFrom('account_registers')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
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
