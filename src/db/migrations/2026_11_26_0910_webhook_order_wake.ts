// Webhooks in milliseconds, in order:
// - webhook_deliveries.object_id (the event's object: a charge, a Pix...) and seq (the order
//   deliveries were made in, which is the outbox's): a delivery is not sent while an earlier
//   one of the same object waits for its first attempt or is being attempted, so a charge's
//   CREATED reaches its receivers before its COMPLETED.
// - A trigger on events sends a NOTIFY on the change feed's channel when the transaction that
//   records an event commits (only then), so the delivery worker of every process wakes at
//   once instead of at its next poll. Its message carries sequence 0: nobody acknowledges it
//   (src/db/change-feed.ts).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('object_id', 'text')
    .addColumn('seq', 'bigserial')
    .execute();
  await sql`create index webhook_deliveries_object on webhook_deliveries (company_id, object_id, seq)
    where status = 'PENDING' and object_id is not null`.execute(db);
  // The channel as channelOf(schema) names it (src/db/change-feed.ts).
  await sql`create function pixgate_events_recorded() returns trigger language plpgsql as $$
    begin
      perform pg_notify(
        left('pixgate_changes_' || regexp_replace(lower(current_schema()), '[^a-z0-9_]', '_', 'g'), 63),
        'outbox:0|webhooks:outbox');
      return null;
    end $$`.execute(db);
  await sql`create trigger events_recorded after insert on events
    for each statement execute function pixgate_events_recorded()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists events_recorded on events`.execute(db);
  await sql`drop function if exists pixgate_events_recorded()`.execute(db);
  await sql`drop index if exists webhook_deliveries_object`.execute(db);
  await db.schema.alterTable('webhook_deliveries').dropColumn('seq').dropColumn('object_id').execute();
}
