// Every event type (the spec's EventType), as values: the platform's webhook events, this
// platform's own PIXGATE: events and the Pix API's callbacks.
import type { components } from '../../generated/platform.types';

export type EventType = components['schemas']['EventType'];

export const EVENT_TYPES = [
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
  'PIX_API:PIX',
  'PIX_API:REC',
  'PIX_API:COBR',
] as const satisfies readonly EventType[];

// Every type of the spec is listed above (one added to the spec must be added here).
type Unlisted = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const allListed: [Unlisted] extends [never] ? true : Unlisted = true;
void allListed;

const KNOWN = new Set<string>(EVENT_TYPES);

export function isEventType(value: string): value is EventType {
  return KNOWN.has(value);
}
