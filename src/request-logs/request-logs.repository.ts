// All SQL of the request log (table request_logs).
import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { Database, Db, RequestLogRow } from '../db/schema';

// One batch of entries in one statement: the rows travel as one JSON parameter (the SQL never
// changes with the batch's size). The JSON's objects are the writer's entries
// (request-logs.types.ts: RequestLogEntry), whose field names are read here.
export async function insertRequestLogs(db: Db, entriesJson: string): Promise<void> {
  await sql`
    insert into request_logs (company_id, at, request_id, api, client_id, method, path, query, operation_id,
      status, latency_ms, idempotency_key, error_code, error_message, ip, user_agent, content_type,
      request_body, request_body_clipped, response_body, response_body_clipped)
    select r."companyId", timestamptz 'epoch' + r."at" * interval '1 millisecond', r."requestId", r."api",
      r."clientId", r."method", r."path", nullif(r."query", ''), r."operationId", r."status", r."latencyMs",
      r."idempotencyKey", r."errorCode", r."errorMessage", r."ip", r."userAgent", r."contentType",
      r."requestBody", coalesce(r."requestBodyClipped", false), r."responseBody", coalesce(r."responseBodyClipped", false)
    from json_to_recordset(${entriesJson}::json) as r("companyId" text, "at" bigint, "requestId" text, "api" text,
      "clientId" text, "method" text, "path" text, "query" text, "operationId" text, "status" smallint,
      "latencyMs" real, "idempotencyKey" text, "errorCode" text, "errorMessage" text, "ip" text, "userAgent" text,
      "contentType" text, "requestBody" text, "requestBodyClipped" boolean, "responseBody" text,
      "responseBodyClipped" boolean)`.execute(db);
}

export interface RequestLogFilter {
  // status >= statusFrom and status < statusTo (one status: [s, s + 1); a class: [400, 500))
  statusFrom?: number;
  statusTo?: number;
  operationId?: string;
  clientId?: string;
  // at >= start and at < end
  start?: Date;
  end?: Date;
}

// Where a page starts: after this entry, in the list's order (newest first).
export interface RequestLogKeyset {
  at: Date;
  id: number;
}

export interface RequestLogPage {
  skip: number;
  limit: number;
  after?: RequestLogKeyset;
}

// The list's columns: everything but the bodies (the detail's).
const LIST_COLUMNS = [
  'id',
  'at',
  'request_id',
  'api',
  'client_id',
  'method',
  'path',
  'query',
  'operation_id',
  'status',
  'latency_ms',
  'idempotency_key',
  'error_code',
  'error_message',
] as const;

export type RequestLogListRow = Pick<RequestLogRow, (typeof LIST_COLUMNS)[number]>;

function matching(
  eb: ExpressionBuilder<Database, 'request_logs'>,
  companyId: string,
  filter: RequestLogFilter,
): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('company_id', '=', companyId)];
  if (filter.statusFrom !== undefined) conditions.push(eb('status', '>=', filter.statusFrom));
  if (filter.statusTo !== undefined) conditions.push(eb('status', '<', filter.statusTo));
  if (filter.operationId) conditions.push(eb('operation_id', '=', filter.operationId));
  if (filter.clientId) conditions.push(eb('client_id', '=', filter.clientId));
  if (filter.start) conditions.push(eb('at', '>=', filter.start));
  if (filter.end) conditions.push(eb('at', '<', filter.end));
  return eb.and(conditions);
}

// A page of a company's entries, newest first, and how many match the filter: one statement.
// Reads limit + 1 rows (the last one only says that a next page exists).
export async function listRequestLogsOfCompany(
  db: Db,
  companyId: string,
  filter: RequestLogFilter,
  page: RequestLogPage,
): Promise<{ rows: RequestLogListRow[]; total: number }> {
  const count = db
    .selectFrom('request_logs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => matching(eb, companyId, filter));
  let rows = db
    .selectFrom('request_logs')
    .select(LIST_COLUMNS)
    .where((eb) => matching(eb, companyId, filter));
  if (page.after) {
    const { at, id } = page.after;
    rows = rows.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(at, id)));
  }
  const pageRows = rows
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.skip)
    .limit(page.limit + 1);
  const result = await db
    .selectFrom(count.as('t'))
    .leftJoinLateral(pageRows.as('r'), (join) => join.onTrue())
    .select('t.total')
    .selectAll('r')
    .execute();
  const found = result.filter((row): row is typeof row & RequestLogListRow => row.id !== null);
  return { rows: found, total: Number(result[0]?.total ?? 0) };
}

// The newest entry of the company with this request id (a client may send one id twice).
export async function findRequestLogOfCompany(
  db: Db,
  companyId: string,
  requestId: string,
): Promise<RequestLogRow | undefined> {
  return db
    .selectFrom('request_logs')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('request_id', '=', requestId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

// Where a company's pruning stopped: its newest entry deleted (entries at or below it are gone).
export interface RequestLogPruneBound extends RequestLogKeyset {
  companyId: string;
}

// A company to prune, and where its last pruning stopped (only entries above it are looked at).
export interface RequestLogPruneTarget {
  companyId: string;
  after?: RequestLogKeyset;
}

// Deletes the entries of these companies beyond each one's `keep` newest and above its `after`,
// at most `max` rows; how many went, and each company's new bound. Runs in a transaction (the
// caller's). Safe on any number of processes at once: the bound is each company's own newest
// rows, and rows another process is deleting are skipped, not waited for.
//
// Why `after`: rows deleted since the last VACUUM stay in the index, and a range reaching down
// to the company's oldest row walked them all again at every pruning (under load, ten times
// the rows it deleted). Why no sort: on a young table the planner expects a few rows per
// company and sorts them all (a bitmap scan, then a sort of the whole company) instead of
// walking `keep` entries of request_logs_company_at in its order; that cost the pruning 40 µs
// per row deleted, more than writing the row had.
export async function deleteRequestLogsBeyondNewest(
  db: Db,
  targets: RequestLogPruneTarget[],
  keep: number,
  max: number,
): Promise<{ deleted: number; bounds: RequestLogPruneBound[] }> {
  await sql`select set_config('enable_sort', 'off', true)`.execute(db);
  const { rows } = await sql<{ company_id: string; at: Date; id: number; n: number }>`
    with bound as (
      select c.company_id, b.at, b.id, c.after_at, c.after_id
        from unnest(${targets.map((t) => t.companyId)}::text[], ${targets.map((t) => t.after?.at ?? null)}::timestamptz[],
          ${targets.map((t) => t.after?.id ?? null)}::int8[]) as c(company_id, after_at, after_id)
        cross join lateral (
          select b.at, b.id from request_logs b where b.company_id = c.company_id
           order by b.at desc, b.id desc offset ${keep} limit 1) as b),
    gone as (
      delete from request_logs where id in (
        select r.id from bound
          join request_logs r on r.company_id = bound.company_id and (r.at, r.id) <= (bound.at, bound.id)
            and (r.at, r.id) > (coalesce(bound.after_at, '-infinity'), coalesce(bound.after_id, 0))
         limit ${max}
         for update of r skip locked)
      returning 1)
    select bound.company_id, bound.at, bound.id, (select count(*) from gone) as n from bound`.execute(db);
  return {
    deleted: Number(rows[0]?.n ?? 0),
    bounds: rows.map((r) => ({ companyId: r.company_id, at: r.at, id: r.id })),
  };
}

// Deletes entries older than `before` among the `max` oldest ids (ids grow with time, so the
// search reads the table's head through its primary key, not the whole table); how many went.
export async function deleteRequestLogsOlderThan(db: Db, before: Date, max: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with gone as (
      delete from request_logs where id in (
        select id from request_logs
         where id < (select min(id) from request_logs) + ${max} and at < ${before}
         for update skip locked)
      returning 1)
    select count(*) as n from gone`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
