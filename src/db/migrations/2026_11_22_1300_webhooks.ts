// Webhooks of both APIs, their deliveries (one per event and webhook) and every attempt,
// plus the outbox mark on events: an event is fanned out to deliveries once
// (dispatched_at), in the same transaction that creates its deliveries.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    // platform: one event of the platform API; pix: Pix received on one key (chave); rec, cobr:
    // the company's recurrence and recurring-charge webhooks of the Pix API.
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('platform', 'pix', 'rec', 'cobr')`))
    .addColumn('event', 'text')
    .addColumn('chave', 'text')
    .addColumn('name', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('authorization', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('webhooks_platform_event', sql`(kind = 'platform') = (event is not null)`)
    .addCheckConstraint('webhooks_pix_chave', sql`(kind = 'pix') = (chave is not null)`)
    .execute();
  await sql`create unique index webhooks_platform_unique on webhooks (company_id, event, url) where kind = 'platform'`.execute(
    db,
  );
  await sql`create unique index webhooks_pix_unique on webhooks (company_id, chave) where kind = 'pix'`.execute(db);
  await sql`create unique index webhooks_company_unique on webhooks (company_id, kind) where kind in ('rec', 'cobr')`.execute(
    db,
  );
  await db.schema
    .createIndex('webhooks_company_kind')
    .on('webhooks')
    .columns(['company_id', 'kind', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    // The exact bytes sent on every attempt (the signatures cover them).
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'SUCCEEDED', 'FAILED')`))
    // Automatic attempts made so far (manual redeliveries are logged but not counted).
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    // A worker owns the delivery until lease_until (it sends without holding a transaction).
    .addColumn('lease_token', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_once', ['webhook_id', 'event_id'])
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'PENDING'`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('manual', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'id'])
    .execute();

  // The outbox mark. Events recorded before webhooks existed had nobody to notify.
  await db.schema.alterTable('events').addColumn('dispatched_at', 'timestamptz').execute();
  await sql`update events set dispatched_at = now()`.execute(db);
  await sql`create index events_undispatched on events (created_at, id) where dispatched_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_undispatched`.execute(db);
  await db.schema.alterTable('events').dropColumn('dispatched_at').execute();
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks'])
    await db.schema.dropTable(table).execute();
}
