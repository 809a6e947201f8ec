// The request log (2026_11_26_0500). Owned by the request-logs area; rows are inserted in
// batches from JSON (src/request-logs/request-logs.repository.ts), never one by one.
import type { ColumnType, Generated, Selectable } from 'kysely';

export type RequestLogApi = 'PLATFORM_API' | 'PIX_API';

export interface RequestLogsTable {
  id: Generated<number>;
  company_id: string;
  at: Date;
  request_id: string;
  api: RequestLogApi;
  client_id: string | null;
  method: string;
  path: string;
  query: string | null;
  operation_id: string | null;
  status: number;
  latency_ms: number;
  idempotency_key: string | null;
  error_code: string | null;
  error_message: string | null;
  ip: string | null;
  user_agent: string | null;
  content_type: string | null;
  request_body: string | null;
  request_body_clipped: ColumnType<boolean, boolean | undefined, boolean>;
  response_body: string | null;
  response_body_clipped: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface RequestLogTables {
  request_logs: RequestLogsTable;
}

export type RequestLogRow = Selectable<RequestLogsTable>;
