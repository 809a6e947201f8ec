// The request log: the last API calls of each company on both APIs (src/request-logs). Rows
// are written in batches by a background writer, never on a request's path, and pruned in the
// background to the newest N per company (PIXGATE_REQUEST_LOG_LIMIT) and a maximum age.
// No foreign key to companies: a key would be one more lookup per row of every batch, and a
// log row names a company that is never deleted.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_logs')
    // The tie-breaker of entries stamped at the same millisecond (keyset paging).
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('company_id', 'text', (c) => c.notNull())
    // When the request arrived, on the server's real clock (not the company's sandbox clock).
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('api', 'text', (c) => c.notNull().check(sql`api in ('PLATFORM_API', 'PIX_API')`))
    .addColumn('client_id', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('query', 'text')
    .addColumn('operation_id', 'text')
    .addColumn('status', 'smallint', (c) => c.notNull())
    .addColumn('latency_ms', 'real', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('content_type', 'text')
    // 4xx and 5xx only: the bodies as JSON text, redacted, clipped (the flags say when).
    .addColumn('request_body', 'text')
    .addColumn('request_body_clipped', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('response_body', 'text')
    .addColumn('response_body_clipped', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // A company's entries newest first: the list, its keyset pages and the pruning's bound.
  await sql`create index request_logs_company_at on request_logs (company_id, at desc, id desc)`.execute(db);
  // One entry by the request id the caller saw in X-Request-Id.
  await db.schema
    .createIndex('request_logs_company_request')
    .on('request_logs')
    .columns(['company_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_logs').execute();
}
