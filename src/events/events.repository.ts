// The events outbox: a state change records its event in the same transaction, so nothing
// is notified that did not happen and nothing that happened is left unnotified.
//
// Types and payloads:
// - platform webhooks: type = the event name ('OPENPIX:CHARGE_COMPLETED', ...), payload =
//   the objects the webhook body carries ({charge, pix, company, account} for charges;
//   {payment, transaction, error?} for movements). The delivery adds `event` and the id.
// - Pix API callbacks: type 'PIX_API:PIX' with payload {chave, pix: <one Pix in the
//   standard's format>}, 'PIX_API:REC' with {rec}, 'PIX_API:COBR' with {cobr}.
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, EventRow } from '../db/schema';
import type { WritePart } from '../db/together';
import type { EventPayload } from './event-payloads';

// An event of a literal type is checked against that type's payload (NewEvent<'PIX_API:PIX'>).
export interface NewEvent<T extends string = string> {
  companyId: string;
  type: T;
  payload: EventPayload<T>;
  at: Date;
}

export async function recordEvent<T extends string>(db: Kysely<Database>, event: NewEvent<T>): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('events')
    .values({
      id,
      company_id: event.companyId,
      type: event.type,
      payload: JSON.stringify(event.payload),
      created_at: event.at,
    })
    .execute();
  return id;
}

// Events as a part of a statement that writes several tables (src/db/together.ts).
export function recordEventsPart(events: NewEvent[]): WritePart {
  return (qc) =>
    qc.insertInto('events').values(
      events.map((event) => ({
        id: randomUUID(),
        company_id: event.companyId,
        type: event.type,
        payload: JSON.stringify(event.payload),
        created_at: event.at,
      })),
    );
}

// Several events in one statement.
export async function recordEvents(db: Kysely<Database>, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({
    id: randomUUID(),
    company_id: event.companyId,
    type: event.type,
    payload: JSON.stringify(event.payload),
    created_at: event.at,
  }));
  await db.insertInto('events').values(rows).execute();
  return rows.map((r) => r.id);
}

export async function listEventsOfCompany(db: Kysely<Database>, companyId: string, type?: string): Promise<EventRow[]> {
  let q = db.selectFrom('events').selectAll().where('company_id', '=', companyId);
  if (type) q = q.where('type', '=', type);
  return q.orderBy('created_at').orderBy('id').execute();
}

// An event of the outbox as the fan-out matches it to webhooks: without its payload (most
// events have no webhook to go to; the payload of those that do is read by findEvents), but
// with the key a Pix callback goes to.
export interface UndispatchedEvent {
  id: string;
  company_id: string;
  type: string;
  chave: string | null;
}

// The outbox side (webhooks area): events not yet fanned out to deliveries, oldest first,
// locked for the caller's transaction; others skip them (several processes share the work).
export async function claimUndispatchedEvents(trx: Kysely<Database>, limit: number): Promise<UndispatchedEvent[]> {
  return trx
    .selectFrom('events')
    .select(['id', 'company_id', 'type', sql<string | null>`payload->>'chave'`.as('chave')])
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function findEvents(db: Kysely<Database>, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
}

export async function markEventsDispatched(trx: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('events')
    .set({ dispatched_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}
