// The events outbox (src/events; webhooks fan it out, see tables/webhooks.ts).
import type { ColumnType, Selectable } from 'kysely';
import type { EventPayload } from '../documents/event-payloads';

type Json<T> = ColumnType<T, string, string>;

export interface EventsTable {
  id: string;
  company_id: string;
  type: string;
  payload: Json<EventPayload>;
  created_at: Date;
  // Set when the webhooks area fanned the event out to deliveries (migration 1300_webhooks).
  dispatched_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  // The object the event is about (migration 2026_11_26_0400_events_api): its type ('charge',
  // 'pix', 'payment'...), id and correlationID, for the events API's filters.
  object_type: ColumnType<string | null, string | null | undefined, string | null>;
  object_id: ColumnType<string | null, string | null | undefined, string | null>;
  correlation_id: ColumnType<string | null, string | null | undefined, string | null>;
  // A test event (POST /api/v1/webhook/{id}/test, or the one sent when a webhook is created).
  is_test: ColumnType<boolean, boolean | undefined, boolean>;
  // The id of the transaction that wrote it (xid8, as text; written by the column's default,
  // migration 2026_11_26_0900_events_stream): the event stream's commit order.
  xid: ColumnType<string | null, never, never>;
}

export interface EventsTables {
  events: EventsTable;
}

export type EventRow = Selectable<EventsTable>;
