// The platform's webhook events (the spec's WebhookEvent), as values: a row's event read back
// from the database is checked against them instead of being cast.
import type { components } from '../../generated/platform.types';

export type WebhookEvent = components['schemas']['WebhookEvent'];

// Every event a platform webhook can subscribe to (GET /api/v1/webhook/events lists them).
export const WEBHOOK_EVENTS = [
  'OPENPIX:CHARGE_CREATED',
  'OPENPIX:CHARGE_COMPLETED',
  'OPENPIX:CHARGE_EXPIRED',
  'OPENPIX:TRANSACTION_RECEIVED',
  'OPENPIX:TRANSACTION_REFUND_RECEIVED',
  'OPENPIX:MOVEMENT_CONFIRMED',
  'OPENPIX:MOVEMENT_FAILED',
  'OPENPIX:MOVEMENT_REMOVED',
  'PIX_TRANSACTION_REFUND_SENT_CONFIRMED',
  'PIX_TRANSACTION_REFUND_SENT_REJECTED',
  'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED',
  'DISPUTE_CREATE',
  'DISPUTE_ACCEPTED',
  'DISPUTE_REJECTED',
  'DISPUTE_CANCELED',
  'PIXGATE:CHARGE_DELETED',
  'PIXGATE:PIX_KEY_CREATED',
  'PIXGATE:PIX_KEY_DELETED',
  'PIXGATE:PIX_KEY_DEFAULT_CHANGED',
  'PIXGATE:FUNDS_RECOVERY_CREATED',
  'PIXGATE:FUNDS_RECOVERY_UPDATED',
  'PIXGATE:KYC_ONBOARDING_CREATED',
  'PIXGATE:KYC_ONBOARDING_SUBMITTED',
  'PIXGATE:KYC_ONBOARDING_APPROVED',
  'PIXGATE:KYC_ONBOARDING_REJECTED',
  'PIXGATE:SUBSCRIPTION_CREATED',
  'PIXGATE:SUBSCRIPTION_CANCELED',
  'PIXGATE:SUBSCRIPTION_VALUE_CHANGED',
] as const satisfies readonly WebhookEvent[];

// Every event of the spec is listed above (one added to the spec must be added here).
type Unlisted = Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]>;
const allListed: [Unlisted] extends [never] ? true : Unlisted = true;
void allListed;

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
