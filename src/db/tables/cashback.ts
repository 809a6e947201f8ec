// Tables of exclusive cashbacks (src/cashback).
import type { Selectable } from 'kysely';

export type CashbackStatus = 'PENDING' | 'USED';

export interface CashbacksTable {
  id: string;
  company_id: string;
  tax_id: string;
  value: number;
  status: CashbackStatus;
  used_transaction_id: string | null;
  used_at: Date | null;
  // What was paid back to the customer, and the return (rtrId) that paid it.
  paid_value: number | null;
  return_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CashbackTables {
  cashbacks: CashbacksTable;
}

export type Cashback = Selectable<CashbacksTable>;
