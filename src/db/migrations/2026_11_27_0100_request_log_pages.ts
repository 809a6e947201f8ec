// The request log is stored a page per row: the entries of one company in one written batch,
// as one JSON array (src/request-logs/request-logs.repository.ts reads them). A row per entry
// cost Postgres about 27 µs of CPU per API call at 6,000 calls/s (a heap tuple, three index
// entries, then the pruning's deletion and vacuum of each). That was more than a quarter of
// what the charge read itself costs (docs/SPEED.md). A page of up to 500 entries costs one
// tuple and two index entries.
//
// The entries already logged move into pages of 500 (by company, oldest first); each keeps
// its place in the list's order, and its position in its page (`n`) becomes part of its id.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_log_pages')
    // The page's id: an entry's id (the keyset's tie-breaker) is id * 1000 + its `n`.
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('company_id', 'text', (c) => c.notNull())
    // The oldest and the newest arrival among the page's entries (server clock).
    .addColumn('first_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull().check(sql`entries > 0`))
    // The JSON array of the entries (RequestLogEntry, with their `n`), redacted and clipped.
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  // Kept apart from the row, uncompressed: the default compression (pglz) doubled the CPU of
  // writing a page (1.25 against 0.55 ms for 160 KB of JSON), and a read needs no decompression.
  await sql`alter table request_log_pages alter column body set storage external`.execute(db);
  // A company's pages in the order they were written (newest first): the pruning's count and
  // every read of the company's log.
  await sql`create index request_log_pages_company on request_log_pages (company_id, id desc) include (entries)`.execute(
    db,
  );
  // Pages holding entries past the maximum age, oldest first.
  await sql`create index request_log_pages_first_at on request_log_pages (first_at)`.execute(db);
  await sql`
    insert into request_log_pages (company_id, first_at, last_at, entries, body)
    select company_id, min(at), max(at), count(*),
      json_agg(json_build_object('companyId', company_id, 'n', n, 'at', (extract(epoch from at) * 1000)::bigint,
        'requestId', request_id, 'api', api, 'clientId', client_id, 'method', method, 'path', path,
        'query', query, 'operationId', operation_id, 'status', status, 'latencyMs', latency_ms,
        'idempotencyKey', idempotency_key, 'errorCode', error_code, 'errorMessage', error_message, 'ip', ip,
        'userAgent', user_agent, 'contentType', content_type, 'requestBody', request_body,
        'requestBodyClipped', request_body_clipped, 'responseBody', response_body,
        'responseBodyClipped', response_body_clipped) order by n)::text
    from (select r.*, (row_number() over (partition by company_id order by at, id) - 1) as k from request_logs r) e,
      lateral (select e.k % 500 as n, e.k / 500 as page) p
    group by company_id, page
    order by company_id, page`.execute(db);
  await db.schema.dropTable('request_logs').execute();
}

// Back to a row per entry (2026_11_26_0500's table and indexes), the entries moved back.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create table request_logs (
      id bigint primary key generated always as identity, company_id text not null, at timestamptz not null,
      request_id text not null, api text not null check (api in ('PLATFORM_API', 'PIX_API')), client_id text,
      method text not null, path text not null, query text, operation_id text, status smallint not null,
      latency_ms real not null, idempotency_key text, error_code text, error_message text, ip text,
      user_agent text, content_type text, request_body text,
      request_body_clipped boolean not null default false, response_body text,
      response_body_clipped boolean not null default false)`.execute(db);
  await sql`create index request_logs_company_at on request_logs (company_id, at desc, id desc)`.execute(db);
  await sql`create index request_logs_company_request on request_logs (company_id, request_id)`.execute(db);
  await sql`
    insert into request_logs (company_id, at, request_id, api, client_id, method, path, query, operation_id,
      status, latency_ms, idempotency_key, error_code, error_message, ip, user_agent, content_type,
      request_body, request_body_clipped, response_body, response_body_clipped)
    select p.company_id, timestamptz 'epoch' + r."at" * interval '1 millisecond', r."requestId", r."api",
      r."clientId", r."method", r."path", r."query", r."operationId", r."status", r."latencyMs",
      r."idempotencyKey", r."errorCode", r."errorMessage", r."ip", r."userAgent", r."contentType",
      r."requestBody", coalesce(r."requestBodyClipped", false), r."responseBody", coalesce(r."responseBodyClipped", false)
    from request_log_pages p
      cross join lateral json_to_recordset(p.body::json) as r("n" int, "at" bigint, "requestId" text, "api" text,
        "clientId" text, "method" text, "path" text, "query" text, "operationId" text, "status" smallint,
        "latencyMs" real, "idempotencyKey" text, "errorCode" text, "errorMessage" text, "ip" text,
        "userAgent" text, "contentType" text, "requestBody" text, "requestBodyClipped" boolean,
        "responseBody" text, "responseBodyClipped" boolean)
    order by p.id, r."n"`.execute(db);
  await db.schema.dropTable('request_log_pages').execute();
}
