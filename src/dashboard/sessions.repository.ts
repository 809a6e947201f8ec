// SQL of the dashboard's sessions (table dashboard_sessions). Times are the database's own
// (now()), so every process agrees on when a session ends.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DashboardSession, Database } from '../db/schema';

export interface SessionLimits {
  idleMs: number;
  maxAgeMs: number;
}

export async function insertSession(
  db: Kysely<Database>,
  row: { idHash: string; companyId: string; applicationId: string },
): Promise<DashboardSession> {
  return db
    .insertInto('dashboard_sessions')
    .values({ id_hash: row.idHash, company_id: row.companyId, application_id: row.applicationId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// The session, seen now (its idle time starts again), if it has not ended: one statement.
export async function touchSession(
  db: Kysely<Database>,
  idHash: string,
  limits: SessionLimits,
): Promise<DashboardSession | undefined> {
  return db
    .updateTable('dashboard_sessions')
    .set({ last_seen_at: sql<Date>`now()` })
    .where('id_hash', '=', idHash)
    .where('last_seen_at', '>', sql<Date>`now() - ${`${limits.idleMs} milliseconds`}::interval`)
    .where('created_at', '>', sql<Date>`now() - ${`${limits.maxAgeMs} milliseconds`}::interval`)
    .returningAll()
    .executeTakeFirst();
}

// Ends the session; `announce` (a NOTIFY) is sent in the same statement when a row went.
export async function deleteSession(
  db: Kysely<Database>,
  idHash: string,
  announce: RawBuilder<unknown>,
): Promise<void> {
  await sql`with gone as (delete from dashboard_sessions where id_hash = ${idHash} returning id_hash)
    select ${announce} from gone`.execute(db);
}

// Sessions that ended by time (swept at each sign-in, bounded).
export async function deleteEndedSessions(db: Kysely<Database>, limits: SessionLimits): Promise<void> {
  await sql`delete from dashboard_sessions where id_hash in (
    select id_hash from dashboard_sessions
    where last_seen_at <= now() - ${`${limits.idleMs} milliseconds`}::interval
       or created_at <= now() - ${`${limits.maxAgeMs} milliseconds`}::interval
    limit 1000)`.execute(db);
}
