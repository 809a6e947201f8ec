// Deliveries and their attempts as the platform API answers them: the log of a webhook
// (compact attempts), one delivery in full (what was sent, what came back, why it failed),
// and the Pix API's webhooks.
import type { components } from '../../generated/platform.types';
import type { Webhook, WebhookAttempt, WebhookDelivery } from '../db/schema';
import { type EventType, isEventType } from '../events/events.service';
import type { ErrorClass } from './attempt-errors';
import { storedWebhookEvent } from './webhook-events';

type Schemas = components['schemas'];

function storedEventType(value: string): EventType {
  if (!isEventType(value)) throw new Error(`stored event type ${value} is not one of the spec's`);
  return value;
}

const errorClassOf = (a: WebhookAttempt) => a.error_class as ErrorClass | null;

function compactAttempt(a: WebhookAttempt): Schemas['WebhookDeliveryAttempt'] {
  return {
    time: a.attempted_at.toISOString(),
    statusCode: a.status_code,
    latencyMs: a.latency_ms,
    error: a.error,
    errorClass: errorClassOf(a),
  };
}

function deliveryCommon(d: WebhookDelivery, attempts: WebhookAttempt[]) {
  return {
    id: d.id,
    webhookId: d.webhook_id,
    eventId: d.event_id,
    isTest: d.is_test,
    status: d.status,
    attempts: attempts.map(compactAttempt),
    nextAttemptAt: d.status === 'PENDING' && d.next_attempt_at ? d.next_attempt_at.toISOString() : null,
    createdAt: d.created_at.toISOString(),
  };
}

export function deliveryView(d: WebhookDelivery, attempts: WebhookAttempt[]): Schemas['WebhookDelivery'] {
  return { ...deliveryCommon(d, attempts), event: storedWebhookEvent(d.event_type) };
}

export function pixDeliveryView(d: WebhookDelivery, attempts: WebhookAttempt[]): Schemas['PixWebhookDelivery'] {
  return { ...deliveryCommon(d, attempts), event: storedEventType(d.event_type) };
}

// An attempt in full. Attempts logged before requests and answers were kept have their
// status and error only.
export function attemptDetailView(a: WebhookAttempt): Schemas['WebhookAttemptDetail'] {
  const errorClass = errorClassOf(a);
  return {
    time: a.attempted_at.toISOString(),
    manual: a.manual,
    durationMs: a.latency_ms,
    request: a.url !== null ? { url: a.url, headers: a.request_headers ?? {} } : null,
    response:
      a.status_code !== null
        ? {
            statusCode: a.status_code,
            headers: a.response_headers ?? {},
            body: a.response_body ?? '',
            bodyTruncated: a.response_body_truncated ?? false,
          }
        : null,
    error:
      a.error !== null || errorClass !== null
        ? { class: errorClass ?? 'OTHER', code: a.error_code, reason: a.error ?? '' }
        : null,
    tls: a.tls,
    probe: a.probe,
  };
}

export function deliveryDetailView(d: WebhookDelivery, attempts: WebhookAttempt[]): Schemas['WebhookDeliveryDetail'] {
  return {
    id: d.id,
    webhookId: d.webhook_id,
    eventId: d.event_id,
    event: storedEventType(d.event_type),
    isTest: d.is_test,
    status: d.status,
    body: d.body,
    attempts: attempts.map(attemptDetailView),
    nextAttemptAt: d.status === 'PENDING' && d.next_attempt_at ? d.next_attempt_at.toISOString() : null,
    createdAt: d.created_at.toISOString(),
  };
}

const PIX_KINDS = { pix: 'PIX', rec: 'REC', cobr: 'COBR' } as const;

export function pixWebhookView(w: Webhook): Schemas['PixWebhook'] {
  return {
    id: w.id,
    kind: PIX_KINDS[w.kind as keyof typeof PIX_KINDS],
    ...(w.chave !== null ? { chave: w.chave } : {}),
    webhookUrl: w.url,
    createdAt: w.created_at.toISOString(),
    updatedAt: w.updated_at.toISOString(),
  };
}
