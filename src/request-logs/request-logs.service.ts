// The request log of each company: the last N API calls on both APIs (PIXGATE_REQUEST_LOG_LIMIT),
// captured after each answer, buffered, written in batches in the background
// (request-log-writer.ts) and pruned in the background to the newest N per company and a
// maximum age. Reads (list with filters, one call by its request id) take a company id, so
// the API's handlers and a dashboard share them.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema';
import { errors } from '../errors/errors';
import { DEFAULT_LIMIT, MAX_LIMIT, periodOf } from '../lib/paging';
import { redactedRequestJson, redactedResponseJson, scrubQuery, scrubText, storableText } from '../lib/redact';
import * as repo from './request-logs.repository';
import { RequestLogWriter } from './request-log-writer';
import type {
  CapturedRequest,
  FailedExchange,
  RequestLogEntry,
  RequestLogStatus,
  StoredRequestLogEntry,
} from './request-logs.types';
import {
  cursorAfter,
  keysetOfCursor,
  requestLogDetailView,
  requestLogEntryView,
  type RequestLogDetailView,
  type RequestLogEntryView,
  type RequestLogPageInfo,
} from './request-logs.view';

export interface RequestLogSettings {
  // Entries kept per company (PIXGATE_REQUEST_LOG_LIMIT); 0: the log is off.
  limit: number;
  // Entries older than this many days are removed (PIXGATE_REQUEST_LOG_MAX_AGE_DAYS); 0: no age limit.
  maxAgeDays: number;
  // Entries waiting in memory at most (PIXGATE_REQUEST_LOG_BUFFER).
  bufferEntries: number;
}

// What GET /api/v1/request-logs takes (all optional).
export interface RequestLogQuery {
  status?: string;
  operationId?: string;
  clientId?: string;
  start?: string;
  end?: string;
  cursor?: string;
  skip?: number;
  limit?: number;
}

export interface RequestLogList {
  requestLogs: RequestLogEntryView[];
  pageInfo: RequestLogPageInfo;
}

export const BODY_MAX_CHARS = 16_384;
// At most 1,000: an entry's id is its page's id * 1000 + its place in the page.
const BATCH_SIZE = 500;
const MAX_BUFFERED_BODY_CHARS = 8 * 1024 * 1024;
const DROP_REPORT_EVERY_MS = 60_000;
const CLOSE_WAIT_MS = 5_000;
// What the answers' schema allows of each text a client chose (headers, path, query).
const LIMITS = { path: 8192, query: 8192, errorMessage: 4096, errorCode: 255, header: 256 };
// One pruning statement's reach: companies, and pages deleted.
const PRUNE_COMPANIES = 500;
const PRUNE_MAX_PAGES = 5_000;
// Statements of one pruning run at most (a company writing faster than one statement deletes).
const PRUNE_ROUNDS = 5;
// Companies whose growth this process follows for the pruning (beyond: the age limit).
const MAX_GROWING_COMPANIES = 10_000;
const DAY_MS = 86_400_000;

export class RequestLogService {
  private readonly writer: RequestLogWriter | undefined;
  // Entries this process wrote per company since that company was last pruned.
  private readonly grown = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: RequestLogSettings,
    log: Logger,
  ) {
    if (settings.limit > 0) {
      this.writer = new RequestLogWriter({
        write: (entries) => repo.insertRequestLogPages(db, pagesOf(entries)),
        written: (entries) => this.noteGrowth(entries),
        capacity: settings.bufferEntries,
        maxBodyChars: MAX_BUFFERED_BODY_CHARS,
        batchSize: Math.min(BATCH_SIZE, settings.bufferEntries),
        log,
        reportEveryMs: DROP_REPORT_EVERY_MS,
      });
    }
  }

  get enabled(): boolean {
    return this.writer !== undefined;
  }

  // One answered request of a company (the request's path: no statement, no await). A 4xx or
  // 5xx brings its bodies, redacted and clipped here so that the buffer holds no more.
  record(captured: CapturedRequest, failed?: FailedExchange): void {
    if (!this.writer) return;
    const entry: RequestLogEntry = captured;
    if (failed) withBodies(entry, failed);
    this.writer.push(entry);
  }

  // Writes what is buffered now (tests call it instead of waiting for the background flush).
  async flush(): Promise<void> {
    await this.writer?.flush();
  }

  // The background flush (every FLUSH_INTERVAL_MS): never waits for a write in progress.
  tick(): void {
    this.writer?.tick();
  }

  // On the server's close: what is buffered is written (or, past a few seconds, dropped and counted).
  async close(): Promise<void> {
    await this.writer?.close(CLOSE_WAIT_MS);
  }

  status(): RequestLogStatus {
    return (
      this.writer?.status() ?? {
        enabled: false,
        buffered: 0,
        written: 0,
        dropped: { bufferFull: 0, writeFailed: 0, shutdown: 0 },
      }
    );
  }

  // A page of the company's calls, newest first, with the filters of the query.
  async list(companyId: string, query: RequestLogQuery): Promise<RequestLogList> {
    // bounded here too: a dashboard calls this without the API's validation
    const skip = Math.max(0, query.skip ?? 0);
    const limit = Math.max(1, Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT));
    const after = query.cursor === undefined ? undefined : keysetOf(query.cursor);
    const filter: repo.RequestLogFilter = {
      ...periodOf(query),
      ...statusRangeOf(query.status),
      ...(query.operationId ? { operationId: query.operationId } : {}),
      ...(query.clientId ? { clientId: query.clientId } : {}),
    };
    const { rows, total } = await repo.listRequestLogsOfCompany(this.db, companyId, filter, {
      skip,
      limit,
      ...(after ? { after } : {}),
    });
    const page = rows.slice(0, limit);
    const hasNextPage = rows.length > limit;
    return {
      requestLogs: page.map(requestLogEntryView),
      pageInfo: {
        skip,
        limit,
        totalCount: total,
        hasPreviousPage: skip > 0 || after !== undefined,
        hasNextPage,
        nextCursor: hasNextPage ? cursorAfter(page[page.length - 1]!) : null,
      },
    };
  }

  // One call of the company by its request id, with its bodies when it failed.
  async get(companyId: string, requestId: string): Promise<RequestLogDetailView> {
    const row = await repo.findRequestLogOfCompany(this.db, companyId, requestId);
    if (!row) throw errors.missing('requestLog');
    return requestLogDetailView(row);
  }

  // The background pruning (any number of processes at once): the companies this process
  // grew by a tenth of the limit lose their entries beyond the limit; entries past the
  // maximum age go whatever their company.
  async prune(now = Date.now()): Promise<{ beyondLimit: number; tooOld: number }> {
    if (!this.writer) return { beyondLimit: 0, tooOld: 0 };
    let beyondLimit = 0;
    for (let round = 0; round < PRUNE_ROUNDS; round++) {
      const due = this.dueForPruning();
      if (due.length === 0) break;
      const deleted = await repo.deleteRequestLogsBeyondNewest(this.db, due, this.settings.limit, PRUNE_MAX_PAGES);
      beyondLimit += deleted.entries;
      // Done with them unless the statement stopped at its maximum of pages.
      if (deleted.pages < PRUNE_MAX_PAGES) for (const id of due) this.grown.delete(id);
    }
    const tooOld =
      this.settings.maxAgeDays > 0
        ? await repo.deleteRequestLogsOlderThan(
            this.db,
            new Date(now - this.settings.maxAgeDays * DAY_MS),
            PRUNE_MAX_PAGES,
          )
        : 0;
    return { beyondLimit, tooOld };
  }

  // The companies that grew by a tenth of the limit since they were last pruned.
  private dueForPruning(): string[] {
    const slack = Math.max(1, Math.floor(this.settings.limit / 10));
    const due: string[] = [];
    for (const [companyId, n] of this.grown) {
      if (n >= slack) due.push(companyId);
      if (due.length === PRUNE_COMPANIES) break;
    }
    return due;
  }

  private noteGrowth(entries: RequestLogEntry[]): void {
    for (const { companyId } of entries) {
      const n = this.grown.get(companyId);
      if (n !== undefined) this.grown.set(companyId, n + 1);
      else if (this.grown.size < MAX_GROWING_COMPANIES) this.grown.set(companyId, 1);
    }
  }
}

function withBodies(entry: RequestLogEntry, { requestBody, responseBody }: FailedExchange): void {
  const request = redactedRequestJson(requestBody, BODY_MAX_CHARS);
  if (request) {
    entry.requestBody = request.text;
    entry.requestBodyClipped = request.clipped;
  }
  const response = responseBodyText(responseBody);
  if (response) {
    entry.responseBody = response.text;
    entry.responseBodyClipped = response.clipped;
  }
}

function responseBodyText(body: unknown): { text: string; clipped: boolean } | undefined {
  if (body === undefined || body === null || Buffer.isBuffer(body) || typeof body === 'function') return undefined;
  if (typeof body === 'string') {
    const text = scrubText(body);
    return text.length <= BODY_MAX_CHARS
      ? { text, clipped: false }
      : { text: text.slice(0, BODY_MAX_CHARS).replace(/[\uD800-\uDBFF]$/, ''), clipped: true };
  }
  // a stream (a file) is not read again
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return undefined;
  return redactedResponseJson(body, BODY_MAX_CHARS);
}

const clipped = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max));

// 404 -> [404, 405); 4xx -> [400, 500).
function statusRangeOf(status: string | undefined): Pick<repo.RequestLogFilter, 'statusFrom' | 'statusTo'> {
  if (!status) return {};
  if (!/^[1-5]([0-9]{2}|xx)$/.test(status))
    throw errors.validation([
      { field: 'status', in: 'query', message: 'must be a status (404) or a class (4xx)', value: status.slice(0, 20) },
    ]);
  if (status.endsWith('xx')) {
    const from = Number(status[0]) * 100;
    return { statusFrom: from, statusTo: from + 100 };
  }
  return { statusFrom: Number(status), statusTo: Number(status) + 1 };
}

function keysetOf(cursor: string): repo.RequestLogKeyset {
  const keyset = keysetOfCursor(cursor);
  if (!keyset)
    throw errors.validation([
      { field: 'cursor', in: 'query', message: 'is not a cursor of this list', value: cursor.slice(0, 200) },
    ]);
  return keyset;
}

// What the log keeps of an Idempotency-Key: never the key, which seals the answer it kept
// (idempotency.service.ts), only a fingerprint the caller can compute to find its request:
// "sha256:" and the first 16 hex digits of the key's SHA-256.
export function idempotencyKeyFingerprint(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

// The batch as the INSERT reads it: a page per company, each entry numbered by its place in
// its page (the second half of its id). What the request's path stored raw is redacted here, in
// the background: the path and query (card-like numbers, credential parameters), the message.
// Into copies: a batch that fails is built again from the same entries at its retry.
function pagesOf(entries: RequestLogEntry[]): repo.RequestLogPageInsert[] {
  const byCompany = new Map<string, StoredRequestLogEntry[]>();
  for (const entry of entries) {
    let page = byCompany.get(entry.companyId);
    if (!page) byCompany.set(entry.companyId, (page = []));
    page.push(storedEntry(entry, page.length));
  }
  const pages: repo.RequestLogPageInsert[] = [];
  for (const [companyId, page] of byCompany) {
    let firstAt = Infinity;
    let lastAt = -Infinity;
    for (const { at } of page) {
      if (at < firstAt) firstAt = at;
      if (at > lastAt) lastAt = at;
    }
    pages.push({ companyId, firstAt, lastAt, entries: page.length, body: storableJson(page) });
  }
  return pages;
}

function storedEntry(entry: RequestLogEntry, n: number): StoredRequestLogEntry {
  const { query, errorMessage, errorCode, idempotencyKey, userAgent, contentType } = entry;
  return {
    ...entry,
    path: clipped(scrubText(entry.path), LIMITS.path),
    query: query && clipped(scrubQuery(query), LIMITS.query),
    errorMessage: errorMessage && clipped(scrubText(errorMessage), LIMITS.errorMessage),
    errorCode: errorCode && clipped(errorCode, LIMITS.errorCode),
    idempotencyKey: idempotencyKey && idempotencyKeyFingerprint(idempotencyKey),
    userAgent: userAgent && clipped(userAgent, LIMITS.header),
    contentType: contentType && clipped(contentType, LIMITS.header),
    n,
  };
}

// Postgres text holds no NUL and no lone surrogate (JSON.stringify writes both as escapes):
// rare enough to look for in the whole page at once, then mend where found.
function storableJson(page: StoredRequestLogEntry[]): string {
  const json = JSON.stringify(page);
  if (!/\\u0000|\\ud[89a-f]/i.test(json)) return json;
  return JSON.stringify(page, (_key, value: unknown) => (typeof value === 'string' ? storableText(value) : value));
}
