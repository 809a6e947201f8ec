// Tables of outgoing payments, limits, account registers, key lookups (token bucket and its
// log) and idempotency records. Owned by the payments (money out) area.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { components } from '../../../generated/platform.types';
import type { Destination, DictEntry } from '../documents/party';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

type PaymentAnswer = components['schemas']['Payment'];

// What the caller sent to address a payment, echoed back in its Payment answer.
export type PaymentRequestEcho = Pick<
  PaymentAnswer,
  'destinationAlias' | 'destinationAliasType' | 'qrCode' | 'boletoBarcode' | 'holder' | 'psp' | 'account'
>;
// The caller's key/value data stored with a payment.
export type PaymentMetadata = NonNullable<components['schemas']['PaymentCreatePixKey']['metadata']>;

export type PaymentType = 'PIX_KEY' | 'QR_CODE' | 'MANUAL' | 'BOLETO';
export type PaymentStatus = 'CREATED' | 'APPROVED' | 'CONFIRMED' | 'FAILED' | 'DENIED';

export interface PaymentsTable {
  id: string;
  company_id: string;
  account_id: string;
  correlation_id: string;
  type: PaymentType;
  status: PaymentStatus;
  value: number;
  request_hash: string;
  request: Json<PaymentRequestEcho>;
  destination: Json<Destination>;
  comment: string | null;
  metadata: NullableJson<PaymentMetadata>;
  end_to_end_id: string | null;
  transaction_id: string | null;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

export interface AccountLimitsTable {
  account_id: string;
  daytime_per_transaction: number;
  daytime_daily: number;
  nighttime_per_transaction: number;
  nighttime_daily: number;
  monthly: number;
  min_free_withdraw_value: number;
  withdraw_fee: number;
  updated_at: Date;
}

export interface AccountRegistersTable {
  id: string;
  company_id: string;
  correlation_id: string;
  type: string;
  official_name: string;
  trade_name: string;
  tax_id: string;
  tax_id_type: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface PixKeyBucketsTable {
  company_id: string;
  tokens: number;
  max_tokens: number;
  refill_rate: number;
  refilled_at: Date;
}

export interface PixKeyTokenLogsTable {
  id: Generated<number>;
  company_id: string;
  account_id: string;
  operation: 'ADD' | 'REMOVE';
  reason: string;
  tokens: number;
  tokens_before: number;
  tokens_after: number;
  pix_key: string | null;
  found: boolean | null;
  // The DICT entry a lookup found (null when none, or for a refill).
  result: NullableJson<DictEntry>;
  end_to_end_id: string | null;
  created_at: Date;
}

export interface IdempotencyRecordsTable {
  company_id: string;
  // SHA-256 of "<company id>\n<Idempotency-Key>" (2026_11_26_0200); the key is not stored
  key_hash: string;
  operation_id: string;
  fingerprint: string;
  state: 'RUNNING' | 'DONE';
  response_status: number | null;
  response_type: string | null;
  response_headers: NullableJson<Record<string, string>>;
  // sealed under a key derived from the Idempotency-Key (src/lib/secret-box.ts)
  response_body: string | null;
  created_at: Date;
  locked_until: Date;
  expires_at: Date;
}

export interface PaymentsTables {
  payments: PaymentsTable;
  account_limits: AccountLimitsTable;
  account_registers: AccountRegistersTable;
  pix_key_buckets: PixKeyBucketsTable;
  pix_key_token_logs: PixKeyTokenLogsTable;
  idempotency_records: IdempotencyRecordsTable;
}

export type PaymentRow = Selectable<PaymentsTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;
export type AccountLimitsRow = Selectable<AccountLimitsTable>;
export type AccountRegisterRow = Selectable<AccountRegistersTable>;
export type NewAccountRegisterRow = Insertable<AccountRegistersTable>;
export type PixKeyBucketRow = Selectable<PixKeyBucketsTable>;
export type PixKeyTokenLogRow = Selectable<PixKeyTokenLogsTable>;
export type NewPixKeyTokenLogRow = Insertable<PixKeyTokenLogsTable>;
export type IdempotencyRecordRow = Selectable<IdempotencyRecordsTable>;
