// Boletos received (a BOLETO charge paid by its barcode) and paid (a BOLETO payment), for
// reconciliation. Owned by the boletos area.
import type { ColumnType, Insertable, Selectable } from 'kysely';

export type BoletoTransactionType = 'BOLETO_IN' | 'BOLETO_OUT';
export type BoletoTransactionStatus = 'CREATED' | 'PROCESSING' | 'PENDING' | 'CONFIRMED' | 'REJECTED';

export interface BoletoTransactionsTable {
  id: string;
  company_id: string;
  account_id: string;
  type: BoletoTransactionType;
  status: BoletoTransactionStatus;
  value: number;
  fee: ColumnType<number, number | undefined, number>;
  fines_value: number | null;
  interests_value: number | null;
  discount_value: number | null;
  charge_id: string | null;
  payment_id: string | null;
  barcode: string;
  digitable_line: string;
  payer_name: string | null;
  payer_tax_id: string | null;
  created_at: Date;
  settled_at: Date | null;
}

export interface BoletosTables {
  boleto_transactions: BoletoTransactionsTable;
}

export type BoletoTransactionRow = Selectable<BoletoTransactionsTable>;
export type NewBoletoTransaction = Insertable<BoletoTransactionsTable>;
