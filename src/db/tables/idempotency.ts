// Tables of idempotency records (src/idempotency).
import type { ColumnType, Selectable } from 'kysely';

type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

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

export interface IdempotencyTables {
  idempotency_records: IdempotencyRecordsTable;
}

export type IdempotencyRecordRow = Selectable<IdempotencyRecordsTable>;
