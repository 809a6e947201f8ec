// What the sandbox did, readable through the platform API (GET /api/v1/events and the delivery
// log of every attempt):
// - events: the object an event is about (its type, id and correlationID, filled from the
//   payload when recorded) and whether it is a test event; indexes for the list, newest first,
//   by company, type, object id and correlationID. The object columns of events recorded before
//   are filled from their payloads here.
// - webhook_deliveries: test deliveries (not retried), found by event; deleting an event
//   (retention) takes its deliveries and their attempts with it.
// - webhook_attempts: what was sent (URL, headers: secrets masked, signatures in full) and what
//   came back (headers, the first 8 KB of the body), and the error's class and code.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('object_type', 'text')
    .addColumn('object_id', 'text')
    .addColumn('correlation_id', 'text')
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await backfillObjects(db);
  // The list, newest first (a backward scan serves it), with the keyset (created_at, id).
  await sql`drop index if exists events_company_time`.execute(db);
  await sql`create index events_company_list on events (company_id, created_at, id)`.execute(db);
  await sql`create index events_company_type on events (company_id, type, created_at, id)`.execute(db);
  await sql`create index events_company_object on events (company_id, object_id) where object_id is not null`.execute(
    db,
  );
  await sql`create index events_company_correlation on events (company_id, correlation_id) where correlation_id is not null`.execute(
    db,
  );
  // Retention: the events older than the period are found by time (a BRIN index costs an
  // insert next to nothing; events arrive roughly in time order).
  await sql`create index events_created_brin on events using brin (created_at)`.execute(db);

  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create index webhook_deliveries_event on webhook_deliveries (event_id)`.execute(db);
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_event_id_fkey`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_event_id_fkey
    foreign key (event_id) references events (id) on delete cascade`.execute(db);
  await sql`drop index if exists webhook_deliveries_webhook`.execute(db);
  await sql`create index webhook_deliveries_webhook on webhook_deliveries (webhook_id, created_at, id)`.execute(db);

  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('url', 'text')
    .addColumn('request_headers', 'jsonb')
    .addColumn('response_headers', 'jsonb')
    .addColumn('response_body', 'text')
    .addColumn('response_body_truncated', 'boolean')
    .addColumn('error_class', 'text')
    .addColumn('error_code', 'text')
    .execute();
}

// The object of each event recorded before, from its payload (one statement per shape).
async function backfillObjects(db: Kysely<any>): Promise<void> {
  const fills: [string, string, string, string | null][] = [
    // [types, object type, id path, correlationID path]
    [`type like 'OPENPIX:CHARGE_%'`, 'charge', `'{charge,globalID}'`, `'{charge,correlationID}'`],
    [`type = 'OPENPIX:TRANSACTION_RECEIVED'`, 'pix', `'{pix,endToEndId}'`, `'{charge,correlationID}'`],
    [
      `type in ('OPENPIX:TRANSACTION_REFUND_RECEIVED', 'PIX_TRANSACTION_REFUND_SENT_CONFIRMED', 'PIX_TRANSACTION_REFUND_SENT_REJECTED', 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED')`,
      'refund',
      `'{refund,refundId}'`,
      `'{refund,correlationID}'`,
    ],
    [`type like 'OPENPIX:MOVEMENT_%'`, 'payment', `'{payment,id}'`, `'{payment,correlationID}'`],
    [`type like 'DISPUTE_%'`, 'dispute', `'{dispute,endToEndId}'`, null],
    [`type = 'PIX_API:PIX'`, 'pix', `'{pix,endToEndId}'`, `'{pix,txid}'`],
    [`type = 'PIX_API:REC'`, 'rec', `'{rec,idRec}'`, null],
    [`type = 'PIX_API:COBR'`, 'cobr', `'{cobr,txid}'`, null],
  ];
  for (const [where, objectType, idPath, correlationPath] of fills) {
    await sql
      .raw(
        `update events set object_type = '${objectType}', object_id = payload #>> ${idPath}, correlation_id = ${
          correlationPath ? `payload #>> ${correlationPath}` : 'null'
        } where ${where}`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [
    'url',
    'request_headers',
    'response_headers',
    'response_body',
    'response_body_truncated',
    'error_class',
    'error_code',
  ])
    await db.schema.alterTable('webhook_attempts').dropColumn(column).execute();
  await sql`drop index if exists webhook_deliveries_webhook`.execute(db);
  await sql`create index webhook_deliveries_webhook on webhook_deliveries (webhook_id, created_at)`.execute(db);
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_event_id_fkey`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_event_id_fkey
    foreign key (event_id) references events (id)`.execute(db);
  await sql`drop index if exists webhook_deliveries_event`.execute(db);
  await db.schema.alterTable('webhook_deliveries').dropColumn('is_test').execute();
  for (const index of [
    'events_company_list',
    'events_company_type',
    'events_company_object',
    'events_company_correlation',
    'events_created_brin',
  ])
    await sql`drop index if exists ${sql.raw(index)}`.execute(db);
  await sql`create index events_company_time on events (company_id, created_at)`.execute(db);
  for (const column of ['object_type', 'object_id', 'correlation_id', 'is_test'])
    await db.schema.alterTable('events').dropColumn(column).execute();
}
