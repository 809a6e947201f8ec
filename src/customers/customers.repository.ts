// All SQL of customers. Every query is scoped to one company.
import { sql } from 'kysely';
import type { CustomerRow, CustomerRowUpdate, Db, NewCustomerRow } from '../db/schema';
import { pagedRows } from '../db/paging';

function ofCompany(db: Db, companyId: string) {
  return db.selectFrom('customers').selectAll().where('company_id', '=', companyId);
}

// Inserts unless the correlationID or tax id is taken (then undefined: nothing written, and the
// surrounding transaction stays usable, which an error would not allow on Postgres).
export async function insertCustomerIfFree(db: Db, row: NewCustomerRow): Promise<CustomerRow | undefined> {
  return db
    .insertInto('customers')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findCustomerByCorrelationId(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<CustomerRow | undefined> {
  return ofCompany(db, companyId).where('correlation_id', '=', correlationId).executeTakeFirst();
}

export async function findCustomerByTaxId(db: Db, companyId: string, taxId: string): Promise<CustomerRow | undefined> {
  return ofCompany(db, companyId).where('tax_id', '=', taxId).executeTakeFirst();
}

// Every customer of the company that one of these fields could name, oldest first (one
// statement; the caller chooses among them by its precedence).
export async function findCustomerCandidates(
  db: Db,
  companyId: string,
  fields: { taxId?: string; email?: string; phone?: string; correlationId?: string },
): Promise<CustomerRow[]> {
  const { taxId, email, phone, correlationId } = fields;
  if ([taxId, email, phone, correlationId].every((v) => v === undefined)) return [];
  return ofCompany(db, companyId)
    .where((eb) =>
      eb.or([
        ...(taxId !== undefined ? [eb('tax_id', '=', taxId)] : []),
        ...(email !== undefined ? [eb(sql<string>`lower(email)`, '=', email.toLowerCase())] : []),
        ...(phone !== undefined ? [eb('phone', '=', phone)] : []),
        ...(correlationId !== undefined ? [eb('correlation_id', '=', correlationId)] : []),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findCustomerById(db: Db, companyId: string, id: string): Promise<CustomerRow | undefined> {
  return ofCompany(db, companyId).where('id', '=', id).executeTakeFirst();
}

// Locks the row for the rest of the transaction (an update reads, merges, then writes).
export async function lockCustomerById(db: Db, companyId: string, id: string): Promise<CustomerRow | undefined> {
  return ofCompany(db, companyId).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateCustomer(
  db: Db,
  companyId: string,
  id: string,
  changes: CustomerRowUpdate,
): Promise<CustomerRow> {
  return db
    .updateTable('customers')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Newest first.
export async function listCustomers(
  db: Db,
  companyId: string,
  skip: number,
  limit: number,
): Promise<{ rows: CustomerRow[]; total: number }> {
  const list = ofCompany(db, companyId).orderBy('created_at', 'desc').orderBy('id', 'desc');
  return pagedRows(list, { skip, limit }, { countPastEnd: () => countCustomers(db, companyId) });
}

async function countCustomers(db: Db, companyId: string): Promise<number> {
  const count = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}
