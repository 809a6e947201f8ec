// All SQL of boleto transactions (the boletos a company received and paid).
import type {
  BoletoTransactionRow,
  BoletoTransactionStatus,
  BoletoTransactionType,
  Db,
  NewBoletoTransaction,
} from '../db/schema';
import type { WritePart } from '../db/together';

export async function insertBoletoTransaction(db: Db, row: NewBoletoTransaction): Promise<BoletoTransactionRow> {
  return db.insertInto('boleto_transactions').values(row).returningAll().executeTakeFirstOrThrow();
}

// The same insert as a part of a statement that writes several tables (src/db/together.ts).
export function insertBoletoTransactionPart(row: NewBoletoTransaction): WritePart {
  return (qc) => qc.insertInto('boleto_transactions').values(row);
}

// A boleto transaction with the correlationID and status of its charge or payment.
export interface BoletoTransactionWithSource extends BoletoTransactionRow {
  charge_correlation_id: string | null;
  charge_txid: string | null;
  charge_value: number | null;
  payment_correlation_id: string | null;
}

export interface BoletoTransactionFilter {
  type?: BoletoTransactionType;
  status?: BoletoTransactionStatus;
  start?: Date;
  end?: Date;
  settledStart?: Date;
  settledEnd?: Date;
}

function ofCompany(db: Db, companyId: string) {
  return db
    .selectFrom('boleto_transactions')
    .leftJoin('charges', 'charges.id', 'boleto_transactions.charge_id')
    .leftJoin('payments', 'payments.id', 'boleto_transactions.payment_id')
    .selectAll('boleto_transactions')
    .select([
      'charges.correlation_id as charge_correlation_id',
      'charges.txid as charge_txid',
      'charges.value as charge_value',
      'payments.correlation_id as payment_correlation_id',
    ])
    .where('boleto_transactions.company_id', '=', companyId);
}

export async function findBoletoTransaction(
  db: Db,
  companyId: string,
  id: string,
): Promise<BoletoTransactionWithSource | undefined> {
  return ofCompany(db, companyId).where('boleto_transactions.id', '=', id).executeTakeFirst();
}

// Newest first; `limit + 1` rows tell whether a next page exists (no count statement).
export async function listBoletoTransactions(
  db: Db,
  companyId: string,
  filter: BoletoTransactionFilter,
  page: { skip: number; limit: number },
): Promise<BoletoTransactionWithSource[]> {
  let q = ofCompany(db, companyId);
  if (filter.type) q = q.where('boleto_transactions.type', '=', filter.type);
  if (filter.status) q = q.where('boleto_transactions.status', '=', filter.status);
  if (filter.start) q = q.where('boleto_transactions.created_at', '>=', filter.start);
  if (filter.end) q = q.where('boleto_transactions.created_at', '<', filter.end);
  if (filter.settledStart) q = q.where('boleto_transactions.settled_at', '>=', filter.settledStart);
  if (filter.settledEnd) q = q.where('boleto_transactions.settled_at', '<', filter.settledEnd);
  return q
    .orderBy('boleto_transactions.created_at', 'desc')
    .orderBy('boleto_transactions.id', 'desc')
    .offset(page.skip)
    .limit(page.limit + 1)
    .execute();
}
