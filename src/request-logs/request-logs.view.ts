// Answers of the request log built from its rows, and the cursor of its keyset pages.
import type { components } from '../../generated/platform.types';
import type { RequestLogRow } from '../db/schema';
import type { RequestLogKeyset, RequestLogListRow } from './request-logs.repository';

export type RequestLogEntryView = components['schemas']['RequestLogEntry'];
export type RequestLogDetailView = components['schemas']['RequestLogDetail'];
export type RequestLogPageInfo = components['schemas']['RequestLogPageInfo'];

export function requestLogEntryView(row: RequestLogListRow): RequestLogEntryView {
  return {
    requestId: row.request_id,
    time: row.at.toISOString(),
    api: row.api,
    clientId: row.client_id,
    method: row.method,
    path: row.path,
    query: row.query,
    operationId: row.operation_id,
    status: row.status,
    latencyMs: Math.round(row.latency_ms * 100) / 100,
    idempotencyKey: row.idempotency_key,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
}

export function requestLogDetailView(row: RequestLogRow): RequestLogDetailView {
  return {
    ...requestLogEntryView(row),
    request: {
      ip: row.ip,
      userAgent: row.user_agent,
      contentType: row.content_type,
      body: row.request_body,
      bodyClipped: row.request_body_clipped,
    },
    response: { body: row.response_body, bodyClipped: row.response_body_clipped },
  };
}

// The cursor after an entry: its time and id, base64url ("<epoch ms>.<id>").
export function cursorAfter(row: { at: Date; id: number }): string {
  return Buffer.from(`${row.at.getTime()}.${row.id}`).toString('base64url');
}

// The entry a cursor names; undefined when it is not one of ours.
export function keysetOfCursor(cursor: string): RequestLogKeyset | undefined {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return undefined;
  return { at: new Date(Number(match[1])), id: Number(match[2]) };
}
