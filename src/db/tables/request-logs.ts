// The request log (2026_11_27_0100: a page per row). Owned by the request-logs area; pages are
// inserted a batch at a time (src/request-logs/request-logs.repository.ts), never one by one.
import type { Generated, Selectable } from 'kysely';

export type RequestLogApi = 'PLATFORM_API' | 'PIX_API';

// The entries of one company in one written batch.
export interface RequestLogPagesTable {
  id: Generated<number>;
  company_id: string;
  first_at: Date;
  last_at: Date;
  entries: number;
  // A JSON array of entries (src/request-logs/request-logs.types.ts: StoredRequestLogEntry).
  body: string;
}

export interface RequestLogTables {
  request_log_pages: RequestLogPagesTable;
}

export type RequestLogPageRow = Selectable<RequestLogPagesTable>;

// One entry as the repository reads it out of its page: its id is the page's id * 1000 + its
// position in the page.
export interface RequestLogRow {
  id: number;
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
  request_body_clipped: boolean;
  response_body: string | null;
  response_body_clipped: boolean;
}
