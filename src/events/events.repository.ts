// The events outbox: a state change records its event in the same transaction, so nothing
// is notified that did not happen and nothing that happened is left unnotified. The same rows
// are what the events API lists (GET /api/v1/events), kept for the retention period.
//
// Types and payloads:
// - platform webhooks: type = the event name ('OPENPIX:CHARGE_COMPLETED', ...), payload =
//   the objects the webhook body carries ({charge, pix, company, account} for charges;
//   {payment, transaction, error?} for movements). The delivery adds `event` and the id.
// - Pix API callbacks: type 'PIX_API:PIX' with payload {chave, pix: <one Pix in the
//   standard's format>}, 'PIX_API:REC' with {rec}, 'PIX_API:COBR' with {cobr}.
// Each event keeps the object it is about (type, id, correlationID), read from its payload
// (event-objects.ts), and whether it is a test event.
import { randomUUID } from 'node:crypto';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Db, EventRow } from '../db/schema';
import type { WritePart } from '../db/together';
import { companyNowSql, latestCompanyNowSql } from '../db/clock-sql';
import type { EventPayload } from '../db/documents/event-payloads';
import { type EventObject, eventObjectOf } from './event-objects';

// An event of a literal type is checked against that type's payload (NewEvent<'PIX_API:PIX'>).
export interface NewEvent<T extends string = string> {
  companyId: string;
  type: T;
  payload: EventPayload<T>;
  at: Date;
  // Given when the caller refers to the event in the same statement (a test delivery).
  id?: string;
  // Read from the payload by type when not given (event-objects.ts).
  object?: EventObject | null;
  isTest?: boolean;
  // Already delivered by the caller (a test event): the fan-out leaves it alone.
  dispatchedAt?: Date;
}

export function newEventRow(event: NewEvent) {
  const object = event.object === undefined ? eventObjectOf(event.type, event.payload) : event.object;
  return {
    id: event.id ?? randomUUID(),
    company_id: event.companyId,
    type: event.type,
    payload: JSON.stringify(event.payload),
    created_at: event.at,
    object_type: object?.type ?? null,
    object_id: object?.id ?? null,
    correlation_id: object?.correlationId ?? null,
    is_test: event.isTest ?? false,
    ...(event.dispatchedAt ? { dispatched_at: event.dispatchedAt } : {}),
  };
}

export async function recordEvent<T extends string>(db: Db, event: NewEvent<T>): Promise<string> {
  const row = newEventRow(event);
  await db.insertInto('events').values(row).execute();
  return row.id;
}

// Events as a part of a statement that writes several tables (src/db/together.ts).
export function recordEventsPart(events: NewEvent[]): WritePart {
  const rows = events.map(newEventRow);
  return (qc) => qc.insertInto('events').values(rows);
}

// The SQL type of each column of a new event (a SELECT's values need them spelled out).
const EVENT_COLUMN_TYPES = {
  id: 'text',
  company_id: 'text',
  type: 'text',
  payload: 'jsonb',
  created_at: 'timestamptz',
  object_type: 'text',
  object_id: 'text',
  correlation_id: 'text',
  is_test: 'boolean',
  dispatched_at: 'timestamptz',
} as const;

// An event as a part of a statement, written only when the statement's CTE `when` answers a
// row (a change that may find nothing to do: an insert on conflict do nothing).
export function recordEventWhenPart(event: NewEvent, when: string): WritePart {
  const row: Record<string, unknown> = newEventRow(event);
  const columns = Object.keys(row) as (keyof typeof EVENT_COLUMN_TYPES)[];
  return (qc) =>
    qc
      .insertInto('events')
      .columns(columns)
      .expression(
        qc
          .selectFrom(sql.table(when).as('w'))
          .select(columns.map((c) => sql`cast(${row[c]} as ${sql.raw(EVENT_COLUMN_TYPES[c])})`.as(c)))
          .limit(1),
      );
}

// Several events in one statement.
export async function recordEvents(db: Db, events: NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map(newEventRow);
  await db.insertInto('events').values(rows).execute();
  return rows.map((r) => r.id);
}

export async function listEventsOfCompany(db: Db, companyId: string, type?: string): Promise<EventRow[]> {
  let q = db.selectFrom('events').selectAll().where('company_id', '=', companyId);
  if (type) q = q.where('type', '=', type);
  return q.orderBy('created_at').orderBy('id').execute();
}

// ---- the events API ----

export interface EventFilters {
  types?: readonly string[];
  objectId?: string;
  correlationId?: string;
  // On the company's clock (created_at is written from it), both inclusive.
  start?: Date;
  end?: Date;
}

// A position in the list, newest first: the events after it are older (or as old, with a
// smaller id).
export interface EventPosition {
  createdAt: Date;
  id: string;
}

export interface EventsPageRequest {
  skip: number;
  // Rows to read: the page's limit plus one, to know whether a next page exists.
  take: number;
  after?: EventPosition;
}

// An event as the lists read it (EVENT_COLUMNS): every column but the stream's xid.
export type ListedEvent = Omit<EventRow, 'xid'>;

export const EVENT_COLUMNS = [
  'id',
  'company_id',
  'type',
  'payload',
  'created_at',
  'dispatched_at',
  'object_type',
  'object_id',
  'correlation_id',
  'is_test',
] as const;

type AliasedEvents = Database & { e: Database['events'] };

function eventFilter(companyId: string, filters: EventFilters) {
  return (eb: ExpressionBuilder<AliasedEvents, 'e'>): Expression<SqlBool> => {
    const conditions = [eb('e.company_id', '=', companyId)];
    if (filters.types?.length) conditions.push(eb('e.type', 'in', filters.types));
    if (filters.objectId !== undefined) conditions.push(eb('e.object_id', '=', filters.objectId));
    if (filters.correlationId !== undefined) conditions.push(eb('e.correlation_id', '=', filters.correlationId));
    if (filters.start) conditions.push(eb('e.created_at', '>=', filters.start));
    if (filters.end) conditions.push(eb('e.created_at', '<', filters.end));
    return eb.and(conditions);
  };
}

// A page of the company's events, newest first, with how many match the filters, in one
// statement: the count, and the page joined to it laterally (an empty page still answers
// the count).
export async function listCompanyEvents(
  db: Db,
  companyId: string,
  filters: EventFilters,
  page: EventsPageRequest,
): Promise<{ rows: ListedEvent[]; total: number }> {
  const where = eventFilter(companyId, filters);
  const rows = await db
    .selectFrom((eb) => eb.selectFrom('events as e').where(where).select(eb.fn.countAll<string>().as('total')).as('t'))
    .leftJoinLateral(
      (eb) => {
        let q = eb.selectFrom('events as e').where(where);
        const after = page.after;
        if (after) q = q.where((w) => w(w.refTuple('e.created_at', 'e.id'), '<', w.tuple(after.createdAt, after.id)));
        return q
          .select(EVENT_COLUMNS.map((c) => `e.${c}` as const))
          .orderBy('e.created_at', 'desc')
          .orderBy('e.id', 'desc')
          .offset(page.skip)
          .limit(page.take)
          .as('p');
      },
      (join) => join.onTrue(),
    )
    .select('t.total')
    .select(EVENT_COLUMNS.map((c) => `p.${c}` as const))
    .execute();
  const total = Number(rows[0]?.total ?? 0);
  return { rows: rows.filter(isPageEvent), total };
}

// A row of the page's lateral join: an event when its id (the primary key) is set; the count's
// row without a page has every column of the join null.
function isPageEvent<R extends { id: string | null }>(row: R): row is R & ListedEvent {
  return row.id !== null;
}

// A delivery of an event as the event's read lists it.
export interface EventDeliverySummary {
  id: string;
  webhookId: string;
  webhookKind: string;
  status: string;
  isTest: boolean;
  attempts: number;
  lastStatusCode: number | null;
  lastErrorClass: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

interface StoredSummary extends Omit<EventDeliverySummary, 'lastAttemptAt' | 'nextAttemptAt' | 'createdAt'> {
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

const toDate = (text: string | null) => (text === null ? null : new Date(text));

// The summaries of the deliveries of event `e` (a correlated subquery), oldest first.
function deliverySummariesOfEvent() {
  return sql<StoredSummary[] | null>`(
    select json_agg(json_build_object(
      'id', d.id, 'webhookId', d.webhook_id, 'webhookKind', w.kind, 'status', d.status, 'isTest', d.is_test,
      'attempts', (select count(*) from webhook_attempts a where a.delivery_id = d.id),
      'lastStatusCode', la.status_code, 'lastErrorClass', la.error_class, 'lastAttemptAt', la.attempted_at,
      'nextAttemptAt', d.next_attempt_at, 'createdAt', d.created_at) order by d.created_at, d.id)
    from webhook_deliveries d
    join webhooks w on w.id = d.webhook_id
    left join lateral (
      select a.status_code, a.error_class, a.attempted_at from webhook_attempts a
      where a.delivery_id = d.id order by a.id desc limit 1) la on true
    where d.event_id = e.id)`;
}

function summariesOf(stored: StoredSummary[] | null): EventDeliverySummary[] {
  return (stored ?? []).map((d) => ({
    ...d,
    attempts: Number(d.attempts),
    lastAttemptAt: toDate(d.lastAttemptAt),
    nextAttemptAt: toDate(d.nextAttemptAt),
    createdAt: new Date(d.createdAt),
  }));
}

// One event of the company with a summary of each of its deliveries, in one statement (the
// deliveries are the webhooks area's: joined here to save the round trip).
export async function findCompanyEventWithDeliveries(
  db: Db,
  companyId: string,
  id: string,
): Promise<{ event: ListedEvent; deliveries: EventDeliverySummary[] } | undefined> {
  const row = await db
    .selectFrom('events as e')
    .select(EVENT_COLUMNS.map((c) => `e.${c}` as const))
    .select(deliverySummariesOfEvent().as('deliveries'))
    .where('e.company_id', '=', companyId)
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { deliveries: stored, ...event } = row;
  return { event, deliveries: summariesOf(stored) };
}

// The newest events of the company about one object (any of its ids or correlationIDs),
// each with its deliveries' summaries, in one statement (a charge's timeline and delivery log).
export async function listObjectEventsWithDeliveries(
  db: Db,
  companyId: string,
  keys: { objectIds: readonly string[]; correlationIds: readonly string[] },
  limit: number,
): Promise<{ event: ListedEvent; deliveries: EventDeliverySummary[] }[]> {
  if (keys.objectIds.length === 0 && keys.correlationIds.length === 0) return [];
  const rows = await db
    .selectFrom('events as e')
    .select(EVENT_COLUMNS.map((c) => `e.${c}` as const))
    .select(deliverySummariesOfEvent().as('deliveries'))
    .where('e.company_id', '=', companyId)
    .where((eb) =>
      eb.or([
        ...(keys.objectIds.length ? [eb('e.object_id', 'in', keys.objectIds)] : []),
        ...(keys.correlationIds.length ? [eb('e.correlation_id', 'in', keys.correlationIds)] : []),
      ]),
    )
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(({ deliveries: stored, ...event }) => ({
    event,
    deliveries: summariesOf(stored),
  }));
}

// ---- the event stream (GET /api/v1/events/stream) ----

// A position in commit order: the transaction that wrote the event (xid8 as text) and its id.
export interface StreamPosition {
  xid: string;
  id: string;
}

// Where a stream opened now starts: at the oldest transaction still running, so that an event
// a transaction in flight writes is not missed (one that committed just before may be sent).
export async function streamStart(db: Db): Promise<StreamPosition> {
  const { rows } = await sql<{ xmin: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(
    db,
  );
  return { xid: rows[0]!.xmin, id: '' };
}

export type StreamedEvent = EventRow & { xid: string };

// The company's events after `after` in commit order, only those whose transaction is below
// the oldest one still running: committed for good, so no event can appear later before them
// (migration 2026_11_26_0900_events_stream).
export async function eventsAfter(
  db: Db,
  companyId: string,
  after: StreamPosition,
  options: { types?: readonly string[]; limit: number },
): Promise<StreamedEvent[]> {
  let q = db
    .selectFrom('events as e')
    .select(EVENT_COLUMNS.map((c) => `e.${c}` as const))
    .select(sql<string>`e.xid::text`.as('xid'))
    .where('e.company_id', '=', companyId)
    .where(sql<SqlBool>`e.xid is not null`)
    .where(sql<SqlBool>`(e.xid, e.id) > (${after.xid}::xid8, ${after.id})`)
    .where(sql<SqlBool>`e.xid < pg_snapshot_xmin(pg_current_snapshot())`);
  if (options.types?.length) q = q.where('e.type', 'in', options.types);
  const rows = await q
    .orderBy(sql`e.xid`)
    .orderBy('e.id')
    .limit(options.limit)
    .execute();
  return rows;
}

// ---- the outbox side (webhooks area) ----

// An event of the outbox as the fan-out matches it to webhooks: without its payload (most
// events have no webhook to go to; the payload of those that do is read by findEvents), but
// with the key a Pix callback goes to.
export interface UndispatchedEvent {
  id: string;
  company_id: string;
  type: string;
  chave: string | null;
}

// Events not yet fanned out to deliveries, oldest first, locked for the caller's transaction;
// others skip them (several processes share the work).
export async function claimUndispatchedEvents(trx: Db, limit: number): Promise<UndispatchedEvent[]> {
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

export async function findEvents(db: Db, ids: string[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
}

export async function markEventsDispatched(trx: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .updateTable('events')
    .set({ dispatched_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}

// ---- retention ----

// Deletes up to `limit` events older than `days` on their company's clock, with their
// deliveries and attempts (on delete cascade). An event not yet fanned out, or with a
// delivery still pending, is kept until it is done. Answers how many were deleted.
export async function pruneEvents(db: Db, days: number, limit: number): Promise<number> {
  const period = sql<string>`(${days}::double precision * interval '1 day')`;
  const doomed = db
    .selectFrom('events as e')
    .select('e.id')
    // The furthest clock bounds the scan (the BRIN index on created_at); each event is then
    // compared with its own company's clock.
    .where('e.created_at', '<', sql<Date>`${latestCompanyNowSql()} - ${period}`)
    .where('e.created_at', '<', sql<Date>`${companyNowSql(sql.ref('e.company_id'))} - ${period}`)
    .where('e.dispatched_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.event_id', '=', 'e.id')
            .where('d.status', '=', 'PENDING'),
        ),
      ),
    )
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const res = await db.deleteFrom('events').where('id', 'in', doomed).executeTakeFirst();
  return Number(res.numDeletedRows);
}
