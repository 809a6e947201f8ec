// The order events committed in, for the event stream (GET /api/v1/events/stream, `pixgate
// listen`): each event keeps the id of the transaction that wrote it (xid8, never wraps).
// created_at cannot serve: it is taken before the transaction commits (and on a movable
// clock), so an event may become visible after a later one was already streamed. An event
// whose xid is below the oldest transaction still running is committed (or gone) for good:
// the stream reads only those, in (xid, id) order, and so never skips one.
// Events recorded before have no xid (they are never streamed: a stream starts at its opening).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column xid xid8`.execute(db);
  await sql`alter table events alter column xid set default pg_current_xact_id()`.execute(db);
  await sql`create index events_company_xid on events (company_id, xid, id) where xid is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists events_company_xid`.execute(db);
  await sql`alter table events drop column xid`.execute(db);
}
