// What other areas hand the request log and read of it.
import type { RequestLogApi } from '../db/tables/request-logs';

export type { RequestLogApi } from '../db/tables/request-logs';

// One answered request, as the request lifecycle (src/http/app.ts) captures it after the
// answer: one small object, buffered as it is (a 4xx or 5xx gets its redacted bodies added).
// The field names are the JSON keys the request log's reads parse (request-logs.repository.ts).
export interface CapturedRequest {
  companyId: string;
  // The client id of the application whose credentials made the call.
  clientId: string | undefined;
  // When the request arrived: milliseconds since the epoch, on the server's real clock.
  at: number;
  requestId: string;
  api: RequestLogApi;
  method: string;
  path: string;
  // The raw query string ('' when none); redacted when written.
  query: string;
  operationId: string | undefined;
  status: number;
  latencyMs: number;
  idempotencyKey: string | undefined;
  ip: string;
  userAgent: string | undefined;
  contentType: string | undefined;
  errorCode: string | undefined;
  errorMessage: string | undefined;
}

// The bodies of a 4xx or 5xx answer as the request lifecycle has them (parsed request body,
// the answer's body), redacted and clipped by the request log before they are buffered.
export interface FailedExchange {
  requestBody: unknown;
  responseBody: unknown;
}

// A captured request as buffered and written.
export interface RequestLogEntry extends CapturedRequest {
  requestBody?: string;
  requestBodyClipped?: boolean;
  responseBody?: string;
  responseBodyClipped?: boolean;
}

// An entry as its page stores it (a JSON array, table request_log_pages): its place in the page
// (0 to the batch size - 1) beside what was buffered.
export interface StoredRequestLogEntry extends RequestLogEntry {
  n: number;
}

// Why entries were dropped instead of written, and how many since the process started.
export interface RequestLogDrops {
  // the buffer held its maximum (the database is slower than the traffic, or away)
  bufferFull: number;
  // a batch failed twice (its first attempt and its one retry)
  writeFailed: number;
  // still buffered when the server closed and could not be written in time
  shutdown: number;
}

// What /readyz and the periodic log line report of the writer.
export interface RequestLogStatus {
  enabled: boolean;
  buffered: number;
  written: number;
  dropped: RequestLogDrops;
}
