// Tables of webhook subscriptions and deliveries. Owned by the webhooks area.
// (The outbox mark events.dispatched_at is declared with the events table in events.ts.)
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export type WebhookKind = 'platform' | 'pix' | 'rec' | 'cobr';
export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface WebhooksTable {
  id: string;
  company_id: string;
  kind: WebhookKind;
  event: string | null;
  chave: string | null;
  name: string | null;
  url: string;
  authorization: string | null;
  is_active: boolean;
  secret: string;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  company_id: string;
  event_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date | null;
  lease_token: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
  // A test delivery: attempted once, never retried on the schedule.
  is_test: ColumnType<boolean, boolean | undefined, boolean>;
  // The event's object (migration 2026_11_26_0910_webhook_order_wake), and the order the
  // deliveries were made in: one object's deliveries go out in that order.
  object_id: ColumnType<string | null, string | null | undefined, string | null>;
  seq: Generated<string>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  // Why the attempt failed, in words (null: a 2xx answer).
  error: string | null;
  manual: boolean;
  // What was sent (null on attempts logged before migration 2026_11_26_0400_events_api): the
  // URL and headers, secrets masked; the body is the delivery's.
  url: ColumnType<string | null, string | null | undefined, string | null>;
  request_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  // What came back: headers and the first 8 KB of the body (null without an answer).
  response_headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  response_body: ColumnType<string | null, string | null | undefined, string | null>;
  response_body_truncated: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  // The failure's class (DNS, REFUSED, TLS, TIMEOUT, RESET, HTTP_STATUS...) and the system's
  // code (ENOTFOUND, CERT_HAS_EXPIRED...).
  error_class: ColumnType<string | null, string | null | undefined, string | null>;
  error_code: ColumnType<string | null, string | null | undefined, string | null>;
  // An https attempt's handshake (migration 2026_11_26_0900_webhook_attempt_tls), and the probe
  // without a client certificate that preceded it when the company asks for probes.
  tls: ColumnType<AttemptTls | null, string | null | undefined, string | null>;
  probe: ColumnType<AttemptProbe | null, string | null | undefined, string | null>;
}

export interface AttemptTls {
  protocol: string | null;
  presentedCertificate: boolean;
  // null: the handshake failed before it could tell.
  askedClientCertificate: boolean | null;
}

export interface AttemptProbe {
  acceptedWithoutCertificate: boolean;
  askedClientCertificate: boolean | null;
  detail: string;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type Webhook = Selectable<WebhooksTable>;
export type NewWebhook = Insertable<WebhooksTable>;
export type WebhookDelivery = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
export type WebhookAttempt = Selectable<WebhookAttemptsTable>;
