// Balances, ledger entries, transactions, Pix keys and the events outbox.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { EventPayload } from '../documents/event-payloads';
import type { StoredTransactionDetails } from '../documents/transaction-details';
import { columnsOf } from '../columns';

type Json<T> = ColumnType<T, string, string>;

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

export interface PixKeysTable {
  key: string;
  company_id: string;
  account_id: string;
  type: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
  is_default: boolean;
  created_at: Date;
}

export const PIX_KEY_COLUMNS = columnsOf<PixKeysTable>()([
  'key',
  'company_id',
  'account_id',
  'type',
  'is_default',
  'created_at',
]);

export interface EventsTable {
  id: string;
  company_id: string;
  type: string;
  payload: Json<EventPayload>;
  created_at: Date;
  // Set when the webhooks area fanned the event out to deliveries (migration 1300_webhooks).
  dispatched_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  // The object the event is about (migration 2026_11_26_0400_events_api): its type ('charge',
  // 'pix', 'payment'...), id and correlationID, for the events API's filters.
  object_type: ColumnType<string | null, string | null | undefined, string | null>;
  object_id: ColumnType<string | null, string | null | undefined, string | null>;
  correlation_id: ColumnType<string | null, string | null | undefined, string | null>;
  // A test event (POST /api/v1/webhook/{id}/test, or the one sent when a webhook is created).
  is_test: ColumnType<boolean, boolean | undefined, boolean>;
  // The id of the transaction that wrote it (xid8, as text; written by the column's default,
  // migration 2026_11_26_0900_events_stream): the event stream's commit order.
  xid: ColumnType<string | null, never, never>;
}

export interface MoneyTables {
  account_balances: AccountBalancesTable;
  ledger_entries: LedgerEntriesTable;
  transactions: TransactionsTable;
  pix_keys: PixKeysTable;
  events: EventsTable;
}

export type AccountBalance = Selectable<AccountBalancesTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type Transaction = Selectable<TransactionsTable>;
export type NewTransaction = Insertable<TransactionsTable>;
export type PixKey = Selectable<PixKeysTable>;
export type NewPixKey = Insertable<PixKeysTable>;
export type EventRow = Selectable<EventsTable>;
