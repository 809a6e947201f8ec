// Tables of transactions (src/transactions).
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { StoredTransactionDetails } from '../documents/transaction-details';

type Json<T> = ColumnType<T, string, string>;

export interface TransactionsTable {
  id: string;
  company_id: string;
  account_id: string;
  type: string;
  value: number;
  end_to_end_id: string | null;
  charge_id: string | null;
  payment_id: string | null;
  details: Json<StoredTransactionDetails>;
  created_at: Date;
}

export interface TransactionsTables {
  transactions: TransactionsTable;
}

export type Transaction = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
