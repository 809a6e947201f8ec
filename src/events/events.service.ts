// The events API (GET /api/v1/events, GET /api/v1/events/{id}): what happened in a company,
// newest first, each event with the body its webhooks carry and, read alone, its deliveries.
// The functions take a company id (a dashboard or a `listen` command call them as the API
// does). Also the entry point of the events area for other areas: recording events in the
// changing transaction, the body of a delivery, the outbox side of the fan-out.
import type { Kysely } from 'kysely';
import type { Database, EventRow } from '../db/schema';
import { errors, type FieldIssue } from '../errors/errors';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../lib/paging';
import type { AccountEnvironment } from './event-body';
import * as repo from './events.repository';
import { type EventView, eventView } from './events.view';

export {
  type AccountEnvironment,
  isPixCallback,
  WEBHOOK_OBJECT,
  webhookBodyObjectOf,
  webhookBodyOf,
} from './event-body';
export type { EventObject } from './event-objects';
export {
  type EventSamples,
  SAMPLE_PREFIX,
  type SampleBuilder,
  type SampleContext,
  type SampleParty,
} from './event-samples';
export type { EventPayload, PixCallbackPayloads, PixCallbackType } from '../db/documents/event-payloads';
export { EVENT_TYPES, type EventType, isEventType } from './event-types';
export {
  claimUndispatchedEvents,
  eventsAfter,
  type StreamedEvent,
  type StreamPosition,
  streamStart,
  type EventFilters,
  findEvents,
  markEventsDispatched,
  type NewEvent,
  newEventRow,
  recordEvent,
  recordEvents,
  recordEventsPart,
  recordEventWhenPart,
  type UndispatchedEvent,
} from './events.repository';

export { type EventView, eventView } from './events.view';

// The view of an event about to be recorded (or just recorded) from what recorded it.
export function eventViewOf(event: repo.NewEvent, environment: AccountEnvironment): EventView {
  const row = repo.newEventRow(event);
  const stored: EventRow = { ...row, payload: event.payload, dispatched_at: event.dispatchedAt ?? null, xid: null };
  return eventView(stored, environment);
}

export interface EventListInput {
  types?: readonly string[];
  objectId?: string;
  correlationId?: string;
  // RFC 3339, on the company's clock: start inclusive, end exclusive.
  start?: string;
  end?: string;
  skip?: number;
  limit?: number;
  // The nextCursor of the previous page.
  cursor?: string;
}

export interface EventPage {
  events: EventView[];
  pageInfo: { skip: number; limit: number; totalCount: number; hasPreviousPage: boolean; hasNextPage: boolean };
  nextCursor: string | null;
}

// The cursor is opaque to clients: base64url of the last event's (createdAt, id).
export function encodeEventCursor(position: repo.EventPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), i: position.id })).toString('base64url');
}

export function decodeEventCursor(cursor: string): repo.EventPosition | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { t, i } = parsed as { t?: unknown; i?: unknown };
    if (typeof t !== 'string' || typeof i !== 'string' || i.length === 0 || i.length > 255 || i.includes('\u0000'))
      return undefined;
    const createdAt = new Date(t);
    return Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id: i };
  } catch {
    return undefined;
  }
}

// What the database cannot hold (NUL) matches nothing; the schema bounds the rest.
const storable = (text: string | undefined) => text === undefined || !text.includes('\u0000');

function filtersOf(input: EventListInput): repo.EventFilters {
  const issues: FieldIssue[] = [];
  const start = input.start !== undefined ? new Date(input.start) : undefined;
  const end = input.end !== undefined ? new Date(input.end) : undefined;
  if (start && end && end < start)
    issues.push({ field: 'end', in: 'query', message: 'is earlier than start', value: input.end! });
  for (const [field, value] of [
    ['objectId', input.objectId],
    ['correlationID', input.correlationId],
  ] as const) {
    if (!storable(value)) issues.push({ field, in: 'query', message: 'must not contain NUL characters' });
  }
  if (issues.length) throw errors.validation(issues);
  return {
    ...(input.types?.length ? { types: input.types } : {}),
    ...(input.objectId !== undefined ? { objectId: input.objectId } : {}),
    ...(input.correlationId !== undefined ? { correlationId: input.correlationId } : {}),
    ...(start ? { start } : {}),
    ...(end ? { end } : {}),
  };
}

export class EventsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly environment: AccountEnvironment,
  ) {}

  // A page of the company's events, newest first (one statement).
  async list(companyId: string, input: EventListInput = {}): Promise<EventPage> {
    const filters = filtersOf(input);
    const skip = input.skip ?? 0;
    const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
    if (!Number.isSafeInteger(skip))
      throw errors.validation([{ field: 'skip', in: 'query', message: `must be at most ${Number.MAX_SAFE_INTEGER}` }]);
    const after = input.cursor !== undefined ? decodeEventCursor(input.cursor) : undefined;
    if (input.cursor !== undefined && !after)
      throw errors.validation([
        { field: 'cursor', in: 'query', message: 'is not a cursor of this list (pass nextCursor as it was answered)' },
      ]);
    const { rows, total } = await repo.listCompanyEvents(this.db, companyId, filters, {
      skip,
      take: limit + 1,
      ...(after ? { after } : {}),
    });
    const page = rows.slice(0, limit);
    const hasNextPage = rows.length > limit;
    const last = page[page.length - 1];
    return {
      events: page.map((e) => eventView(e, this.environment)),
      pageInfo: { skip, limit, totalCount: total, hasPreviousPage: skip > 0 || after !== undefined, hasNextPage },
      nextCursor: hasNextPage && last ? encodeEventCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  }

  // The newest events about one object of the company (by any of its ids or correlationIDs:
  // a charge's events, and those of its Pix, carry the charge's correlationID), each with its
  // deliveries, in one statement.
  async ofObject(
    companyId: string,
    keys: { objectIds?: readonly string[]; correlationIds?: readonly string[] },
    limit = 50,
  ): Promise<EventView[]> {
    const clean = (list: readonly string[] | undefined) => (list ?? []).filter((k) => k !== '' && storable(k));
    const rows = await repo.listObjectEventsWithDeliveries(
      this.db,
      companyId,
      { objectIds: clean(keys.objectIds), correlationIds: clean(keys.correlationIds) },
      Math.min(Math.max(1, limit), MAX_LIMIT),
    );
    return rows.map((r) => eventView(r.event, this.environment, r.deliveries));
  }

  // One event of the company with its deliveries (one statement).
  async get(companyId: string, id: string): Promise<EventView> {
    if (!storable(id)) throw errors.missing('event');
    const found = await repo.findCompanyEventWithDeliveries(this.db, companyId, id);
    if (!found) throw errors.missing('event');
    return eventView(found.event, this.environment, found.deliveries);
  }
}
