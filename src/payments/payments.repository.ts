// All SQL of outgoing payments, with the payer side (account and company) they are shown with.
import { sql } from 'kysely';
import { companyNowSql } from '../db/clock-sql';
import type { Db, NewPaymentRow, PaymentRow } from '../db/schema';
import type { WritePart } from '../db/together';
import { pagedRows } from '../db/paging';

export interface PaymentWithPayer extends PaymentRow {
  payer_branch: string;
  payer_account_number: string;
  payer_account_status: 'OPEN' | 'CLOSED';
  payer_tax_id: string;
  payer_official_name: string;
  payer_trade_name: string;
}

function withPayer(db: Db) {
  return db
    .selectFrom('payments')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'payments.account_id')
    .innerJoin('companies', 'companies.id', 'payments.company_id')
    .selectAll('payments')
    .select([
      'bank_accounts.branch as payer_branch',
      'bank_accounts.account_number as payer_account_number',
      'bank_accounts.status as payer_account_status',
      'companies.tax_id as payer_tax_id',
      'companies.official_name as payer_official_name',
      'companies.trade_name as payer_trade_name',
    ]);
}

export async function insertPayment(db: Db, row: NewPaymentRow): Promise<PaymentRow> {
  return db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow();
}

// A payment's outcome as a part of a statement that writes several tables (src/db/together.ts).
export function updatePaymentPart(id: string, changes: Parameters<typeof updatePayment>[2]): WritePart {
  return (qc) => qc.updateTable('payments').set(changes).where('id', '=', id);
}

export async function findByCorrelation(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<PaymentWithPayer | undefined> {
  return withPayer(db)
    .where('payments.company_id', '=', companyId)
    .where('payments.correlation_id', '=', correlationId)
    .executeTakeFirst();
}

// The payment row locked for an approval (then read with its payer).
export async function lockByCorrelation(
  db: Db,
  companyId: string,
  correlationId: string,
): Promise<PaymentWithPayer | undefined> {
  const locked = await db
    .selectFrom('payments')
    .select('id')
    .where('company_id', '=', companyId)
    .where('correlation_id', '=', correlationId)
    .forUpdate()
    .executeTakeFirst();
  return locked ? withPayer(db).where('payments.id', '=', locked.id).executeTakeFirst() : undefined;
}

// By id, else correlationID, else endToEndId, within the company.
// A company's payment by id, else correlationID, else end-to-end id (one statement).
export async function findPayment(db: Db, companyId: string, id: string): Promise<PaymentWithPayer | undefined> {
  const rows = await withPayer(db)
    .where('payments.company_id', '=', companyId)
    .where((eb) =>
      eb.or([
        eb('payments.id', '=', id),
        eb('payments.correlation_id', '=', id),
        eb('payments.end_to_end_id', '=', id),
      ]),
    )
    .execute();
  const rank = (p: PaymentWithPayer) => (p.id === id ? 0 : p.correlation_id === id ? 1 : 2);
  return rows.sort((a, b) => rank(a) - rank(b))[0];
}

export async function endToEndIdTaken(db: Db, endToEndId: string): Promise<boolean> {
  return (
    (await db.selectFrom('payments').select('id').where('end_to_end_id', '=', endToEndId).executeTakeFirst()) !==
    undefined
  );
}

export async function listPayments(
  db: Db,
  companyId: string,
  skip: number,
  limit: number,
): Promise<{ rows: PaymentWithPayer[]; total: number }> {
  const list = withPayer(db)
    .where('payments.company_id', '=', companyId)
    .orderBy('payments.created_at', 'desc')
    .orderBy('payments.id', 'desc');
  const countPastEnd = async () => {
    const { n } = await db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  return pagedRows(list, { skip, limit }, { countPastEnd });
}

export async function updatePayment(
  db: Db,
  id: string,
  set: Partial<
    Pick<
      PaymentRow,
      'status' | 'end_to_end_id' | 'transaction_id' | 'failure_code' | 'failure_reason' | 'settled_at' | 'updated_at'
    >
  >,
): Promise<void> {
  await db.updateTable('payments').set(set).where('id', '=', id).execute();
}

// CREATED payments older than `before`, locked (others skip them): the expiry job's batch.
// CREATED payments older than `ageMs` on their company's clock.
export async function claimStale(db: Db, ageMs: number, limit: number): Promise<PaymentWithPayer[]> {
  const ids = await db
    .selectFrom('payments')
    .select('id')
    .where('status', '=', 'CREATED')
    .where('created_at', '<', companyNowSql(sql.ref('payments.company_id'), -ageMs))
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (ids.length === 0) return [];
  return withPayer(db)
    .where(
      'payments.id',
      'in',
      ids.map((r) => r.id),
    )
    .execute();
}

// The company's payment that carries this endToEndId (set on approval, CONFIRMED or FAILED).
export async function findCompanyPayment(
  db: Db,
  companyId: string,
  endToEndId: string,
): Promise<{ id: string; status: string } | undefined> {
  return db
    .selectFrom('payments')
    .select(['id', 'status'])
    .where('company_id', '=', companyId)
    .where('end_to_end_id', '=', endToEndId)
    .executeTakeFirst();
}
