// Tables of Pix keys and the key lookups' token buckets and their log (src/keys).
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { DictEntry } from '../documents/party';
import { columnsOf } from '../columns';

type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

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

export interface KeysTables {
  pix_keys: PixKeysTable;
  pix_key_buckets: PixKeyBucketsTable;
  pix_key_token_logs: PixKeyTokenLogsTable;
}

export type PixKey = Selectable<PixKeysTable>;
export type NewPixKey = Insertable<PixKeysTable>;
export type PixKeyBucketRow = Selectable<PixKeyBucketsTable>;
export type PixKeyTokenLogRow = Selectable<PixKeyTokenLogsTable>;
export type NewPixKeyTokenLogRow = Insertable<PixKeyTokenLogsTable>;
