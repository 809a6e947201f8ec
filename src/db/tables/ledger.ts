// Tables of balances and ledger entries (src/ledger).
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface AccountBalancesTable {
  account_id: string;
  total: ColumnType<number, number | undefined, number>;
  blocked: ColumnType<number, number | undefined, number>;
  blocked_security: ColumnType<number, number | undefined, number>;
  blocked_withdraw_safety: ColumnType<number, number | undefined, number>;
  updated_at: Date;
}

export type LedgerEntryKind = 'CREDIT' | 'DEBIT' | 'HOLD' | 'RELEASE';
export type LedgerBucket = 'available' | 'blocked' | 'security' | 'withdraw_safety';

export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: string;
  move_id: string;
  kind: LedgerEntryKind;
  bucket: LedgerBucket;
  amount: number;
  transaction_id: string | null;
  description: string | null;
  created_at: Date;
}

export interface LedgerTables {
  account_balances: AccountBalancesTable;
  ledger_entries: LedgerEntriesTable;
}

export type AccountBalance = Selectable<AccountBalancesTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
