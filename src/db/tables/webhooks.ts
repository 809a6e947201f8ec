// Tables of webhook subscriptions and deliveries. Owned by the webhooks area.
// (The outbox mark events.dispatched_at is declared with the events table in money.ts.)
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
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  manual: boolean;
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
