// The platform's webhook events (the spec's WebhookEvent), as values: a row's event read back
// from the database is checked against them instead of being cast.
import type { components } from '../../generated/platform.types';
import { EVENT_TYPES, type EventType } from '../events/events.service';

export type WebhookEvent = components['schemas']['WebhookEvent'];

// Every event a platform webhook can subscribe to (GET /api/v1/webhook/events lists them):
// the event types (events area, one list for both) but the Pix API's callbacks, which go to
// the webhooks of PUT /pix/v2/webhook instead.
const isSubscribable = (type: EventType): type is WebhookEvent => !type.startsWith('PIX_API:');
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = EVENT_TYPES.filter(isSubscribable);

// Both ways, the spec's WebhookEvent is exactly the event types but PIX_API:* (a type added to
// one enum of the spec and not the other fails to compile here).
type Subscribable = Exclude<EventType, `PIX_API:${string}`>;
type Mismatch = Exclude<Subscribable, WebhookEvent> | Exclude<WebhookEvent, Subscribable>;
const sameSets: [Mismatch] extends [never] ? true : Mismatch = true;
void sameSets;

const KNOWN = new Set<string>(WEBHOOK_EVENTS);

export function isWebhookEvent(value: string | null): value is WebhookEvent {
  return value !== null && KNOWN.has(value);
}

// A platform webhook's (or delivery's) event as stored: always one of the spec's, since the
// request validator admits no other.
export function storedWebhookEvent(value: string | null): WebhookEvent {
  if (!isWebhookEvent(value)) throw new Error(`stored webhook event ${String(value)} is not one of the spec's`);
  return value;
}
