// All SQL of the request log (table request_log_pages: a page per row, each page the JSON
// array of one company's entries in one written batch).
import { type RawBuilder, sql } from 'kysely';
import type { Db, RequestLogRow } from '../db/schema';

// The pages of one written batch (a page per company), in one statement whose SQL never
// changes with the batch: one page (the common case) as plain parameters, several as arrays.
export interface RequestLogPageInsert {
  companyId: string;
  // epoch milliseconds: the oldest and the newest arrival among the page's entries
  firstAt: number;
  lastAt: number;
  entries: number;
  // the JSON array of the entries (request-logs.types.ts: StoredRequestLogEntry)
  body: string;
}

export async function insertRequestLogPages(db: Db, pages: RequestLogPageInsert[]): Promise<void> {
  if (pages.length === 1) {
    const [page] = pages as [RequestLogPageInsert];
    await sql`
      insert into request_log_pages (company_id, first_at, last_at, entries, body)
      values (${page.companyId}, timestamptz 'epoch' + ${page.firstAt}::int8 * interval '1 millisecond',
        timestamptz 'epoch' + ${page.lastAt}::int8 * interval '1 millisecond', ${page.entries}, ${page.body})`.execute(
      db,
    );
    return;
  }
  await sql`
    insert into request_log_pages (company_id, first_at, last_at, entries, body)
    select p.company_id, timestamptz 'epoch' + p.first_at * interval '1 millisecond',
      timestamptz 'epoch' + p.last_at * interval '1 millisecond', p.entries, p.body
    from unnest(${pages.map((p) => p.companyId)}::text[], ${pages.map((p) => p.firstAt)}::int8[],
      ${pages.map((p) => p.lastAt)}::int8[], ${pages.map((p) => p.entries)}::int4[],
      ${pages.map((p) => p.body)}::text[]) with ordinality as p(company_id, first_at, last_at, entries, body, k)
    order by p.k`.execute(db);
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

// The list's columns: everything but the request's details and the bodies (the detail's).
export type RequestLogListRow = Omit<
  RequestLogRow,
  | 'ip'
  | 'user_agent'
  | 'content_type'
  | 'request_body'
  | 'request_body_clipped'
  | 'response_body'
  | 'response_body_clipped'
>;

// A company's entries out of their pages, as rows (an entry's id: its page's id * 1000 + its
// position `n`). `pageWhere` narrows the pages read before their JSON is parsed.
function entriesOfCompany(companyId: string, o: { detail: boolean; pageWhere: RawBuilder<unknown>[] }) {
  const detail = o.detail
    ? sql`, r."ip", r."userAgent" as user_agent, r."contentType" as content_type, r."requestBody" as request_body,
      coalesce(r."requestBodyClipped", false) as request_body_clipped, r."responseBody" as response_body,
      coalesce(r."responseBodyClipped", false) as response_body_clipped`
    : sql``;
  const detailColumns = o.detail
    ? sql`, "ip" text, "userAgent" text, "contentType" text, "requestBody" text, "requestBodyClipped" boolean,
      "responseBody" text, "responseBodyClipped" boolean`
    : sql``;
  return sql`
    select p.id * 1000 + r."n" as id, timestamptz 'epoch' + r."at" * interval '1 millisecond' as at,
      r."requestId" as request_id, r."api", r."clientId" as client_id, r."method", r."path",
      nullif(r."query", '') as query, r."operationId" as operation_id, r."status", r."latencyMs" as latency_ms,
      r."idempotencyKey" as idempotency_key, r."errorCode" as error_code, r."errorMessage" as error_message
      ${detail}
    from request_log_pages p
      cross join lateral json_to_recordset(p.body::json) as r("n" int, "at" bigint, "requestId" text, "api" text,
        "clientId" text, "method" text, "path" text, "query" text, "operationId" text, "status" smallint,
        "latencyMs" real, "idempotencyKey" text, "errorCode" text, "errorMessage" text ${detailColumns})
    where ${sql.join([sql`p.company_id = ${companyId}`, ...o.pageWhere], sql` and `)}`;
}

function matching(filter: RequestLogFilter): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`true`];
  if (filter.statusFrom !== undefined) conditions.push(sql`e.status >= ${filter.statusFrom}`);
  if (filter.statusTo !== undefined) conditions.push(sql`e.status < ${filter.statusTo}`);
  if (filter.operationId) conditions.push(sql`e.operation_id = ${filter.operationId}`);
  if (filter.clientId) conditions.push(sql`e.client_id = ${filter.clientId}`);
  if (filter.start) conditions.push(sql`e.at >= ${filter.start}`);
  if (filter.end) conditions.push(sql`e.at < ${filter.end}`);
  return sql.join(conditions, sql` and `);
}

// A page of a company's entries, newest first, and how many match the filter: one statement.
// Reads limit + 1 rows (the last one only says that a next page exists).
export async function listRequestLogsOfCompany(
  db: Db,
  companyId: string,
  filter: RequestLogFilter,
  page: RequestLogPage,
): Promise<{ rows: RequestLogListRow[]; total: number }> {
  const unfiltered = Object.values(filter).every((value) => value === undefined);
  const { rows } = await (
    unfiltered ? newestRequestLogs(companyId, page) : matchingRequestLogs(companyId, filter, page)
  ).execute(db);
  const found = rows.filter((row) => row.id !== null).map(({ total: _, ...row }) => ({ ...row, id: Number(row.id) }));
  return { rows: found, total: Number(rows[0]?.total ?? 0) };
}

type ListedRow = RequestLogListRow & { total: number | string };

// With a filter: every page of the company that may hold a match is parsed (at most the log's
// limit per company, plus a batch): about 30 ms for 10,000 entries.
function matchingRequestLogs(companyId: string, filter: RequestLogFilter, page: RequestLogPage) {
  const pageWhere: RawBuilder<unknown>[] = [];
  if (filter.start) pageWhere.push(sql`p.last_at >= ${filter.start}`);
  if (filter.end) pageWhere.push(sql`p.first_at < ${filter.end}`);
  const after = page.after ? sql`(e.at, e.id) < (${page.after.at}, ${page.after.id})` : sql`true`;
  return sql<ListedRow>`
    with e as (${entriesOfCompany(companyId, { detail: false, pageWhere })}),
    m as (select * from e where ${matching(filter)})
    select (select count(*) from m) as total, r.*
      from (select 1) as one
      left join lateral (
        select * from m e where ${after} order by e.at desc, e.id desc offset ${page.skip} limit ${page.limit + 1}
      ) as r on true`;
}

// Without one (a list's first look, and its pages by cursor): the total is the pages' counts,
// and only the pages that can hold the entries asked for are parsed. Why they suffice: the
// newest pages (by their newest entry) whose entries all precede the cursor, taken until they
// hold skip + limit + 1 entries, reach back to a time T; so at least that many entries before
// the cursor arrived at T or later, and every entry the answer needs lies in a page whose
// newest entry is at T or later (pages overlap in time: processes write concurrently).
function newestRequestLogs(companyId: string, page: RequestLogPage) {
  const afterAt = page.after ? sql`${page.after.at}::timestamptz` : sql`'infinity'::timestamptz`;
  const after = page.after ? sql`(e.at, e.id) < (${page.after.at}, ${page.after.id})` : sql`true`;
  const need = page.skip + page.limit + 1;
  const pageWhere = [
    sql`p.first_at <= ${afterAt}`,
    sql`p.last_at >= coalesce((select min(first_at) from ranked where newer < ${need}), '-infinity')`,
  ];
  return sql<ListedRow>`
    with ranked as (
      select p.first_at, sum(p.entries) over (order by p.last_at desc, p.id desc) - p.entries as newer
        from request_log_pages p where p.company_id = ${companyId} and p.last_at < ${afterAt})
    select (select coalesce(sum(entries), 0) from request_log_pages where company_id = ${companyId}) as total, r.*
      from (select 1) as one
      left join lateral (
        select * from (${entriesOfCompany(companyId, { detail: false, pageWhere })}) as e
         where ${after} order by e.at desc, e.id desc offset ${page.skip} limit ${page.limit + 1}
      ) as r on true`;
}

// The newest entry of the company with this request id (a client may send one id twice). Only
// pages whose text holds the id (as JSON writes it) are parsed.
export async function findRequestLogOfCompany(
  db: Db,
  companyId: string,
  requestId: string,
): Promise<RequestLogRow | undefined> {
  const pageWhere = [sql`strpos(p.body, ${JSON.stringify(requestId)}) > 0`];
  const { rows } = await sql<RequestLogRow>`
    select e.* from (${entriesOfCompany(companyId, { detail: true, pageWhere })}) as e
     where e.request_id = ${requestId}
     order by e.at desc, e.id desc
     limit 1`.execute(db);
  const row = rows[0];
  return row ? { ...row, id: Number(row.id) } : undefined;
}

// When an entry of a page arrived (x.e: the entry, in pageKeeping).
const ENTRY_AT = sql`timestamptz 'epoch' + (x.e->>'at')::int8 * interval '1 millisecond'`;

// What is left of page p once only its entries where `keep` holds stay (x.e: an entry, x.i: its
// place in the page from 1): its new body, in the same order, how many it keeps and the oldest
// arrival among them. A pruning's cut of a page (the kept entries' ids do not change).
function pageKeeping(keep: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    select json_agg(x.e order by x.i)::text as body, count(*)::int as kept, min(${ENTRY_AT}) as first_at
      from json_array_elements(p.body::json) with ordinality as x(e, i)
     where ${keep}`;
}

// Deletes, for each of these companies, what is beyond its `keep` newest entries in the order
// they were written (its pages newest first; a page holds entries in the order they were
// answered): whole pages beyond them, at most `maxPages`, and the older part of the page
// across the bound. How many entries and whole pages went. Safe on any number of processes at once: pages
// another process is deleting are skipped, not waited for, and a page is cut only while it
// still holds what this statement saw (another process may have cut it first).
export async function deleteRequestLogsBeyondNewest(
  db: Db,
  companyIds: string[],
  keep: number,
  maxPages: number,
): Promise<{ entries: number; pages: number }> {
  const { rows } = await sql<{ n: number | string; pages: number | string }>`
    with seen as (
      select p.id, p.entries, coalesce(sum(p.entries) over (partition by p.company_id order by p.id desc
          rows between unbounded preceding and 1 preceding), 0) as newer
        from request_log_pages p where p.company_id = any(${companyIds}::text[])),
    gone as (
      delete from request_log_pages where id in (
        select p.id from request_log_pages p join seen on seen.id = p.id
         where seen.newer >= ${keep} limit ${maxPages} for update of p skip locked)
      returning entries),
    cut as (
      select seen.id, seen.entries, t.body, t.first_at, t.kept
        from seen join request_log_pages p on p.id = seen.id
        cross join lateral (${pageKeeping(sql`x.i > seen.entries - (${keep} - seen.newer)`)}) as t
       where seen.newer < ${keep} and seen.newer + seen.entries > ${keep}),
    trimmed as (
      update request_log_pages p set body = cut.body, entries = cut.kept, first_at = cut.first_at
        from cut where p.id = cut.id and p.entries = cut.entries
      returning cut.entries - cut.kept as removed)
    select coalesce((select sum(entries) from gone), 0) + coalesce((select sum(removed) from trimmed), 0) as n,
      (select count(*) from gone) as pages`.execute(db);
  return { entries: Number(rows[0]?.n ?? 0), pages: Number(rows[0]?.pages ?? 0) };
}

// Deletes the entries that arrived before `before`: the pages holding only those (at most
// `maxPages`, oldest first), and those entries out of a page that also holds newer ones. How
// many entries went.
export async function deleteRequestLogsOlderThan(db: Db, before: Date, maxPages: number): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    with old as (
      select id, entries, last_at < ${before} as whole from request_log_pages
       where first_at < ${before} order by first_at limit ${maxPages} for update skip locked),
    gone as (
      delete from request_log_pages where id in (select id from old where whole) returning entries),
    cut as (
      select old.id, old.entries, t.body, t.first_at, t.kept
        from old join request_log_pages p on p.id = old.id
        cross join lateral (${pageKeeping(sql`${ENTRY_AT} >= ${before}`)}) as t
       where not old.whole),
    trimmed as (
      update request_log_pages p set body = cut.body, entries = cut.kept, first_at = cut.first_at
        from cut where p.id = cut.id
      returning cut.entries - cut.kept as removed)
    select coalesce((select sum(entries) from gone), 0) + coalesce((select sum(removed) from trimmed), 0) as n`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}
