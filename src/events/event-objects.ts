// The object an event is about, read from its payload when the event is recorded (and by the
// migration that added the columns, for the events recorded before): the events API filters
// on its id and correlationID. One reader per event type; a type without one (or a payload
// without the fields) has no object.
import { isJsonObject, type JsonObject } from '../lib/json';

export interface EventObject {
  // 'charge', 'pix', 'refund', 'payment', 'dispute', 'rec', 'cobr', 'pixKey', 'fundsRecovery',
  // 'kycOnboarding', 'subscription', 'webhook' (the test event a new webhook gets).
  type: string;
  id: string | null;
  correlationId: string | null;
}

// The string at `path` in the payload, or null.
function textAt(payload: JsonObject, path: readonly string[]): string | null {
  let value: unknown = payload;
  for (const key of path) {
    if (!isJsonObject(value)) return null;
    value = value[key];
  }
  return typeof value === 'string' && value !== '' ? value.slice(0, 255) : null;
}

interface Reader {
  type: string;
  id: readonly string[];
  correlation?: readonly string[];
}

const CHARGE: Reader = { type: 'charge', id: ['charge', 'globalID'], correlation: ['charge', 'correlationID'] };
const REFUND: Reader = { type: 'refund', id: ['refund', 'refundId'], correlation: ['refund', 'correlationID'] };
const PAYMENT: Reader = { type: 'payment', id: ['payment', 'id'], correlation: ['payment', 'correlationID'] };
const DISPUTE: Reader = { type: 'dispute', id: ['dispute', 'endToEndId'] };
const PIX_KEY: Reader = { type: 'pixKey', id: ['pixKey', 'key'] };
const RECOVERY: Reader = { type: 'fundsRecovery', id: ['fundsRecovery', 'dictId'] };
const ONBOARDING: Reader = {
  type: 'kycOnboarding',
  id: ['onboarding', 'id'],
  correlation: ['onboarding', 'correlationID'],
};
const SUBSCRIPTION: Reader = {
  type: 'subscription',
  id: ['subscription', 'globalID'],
  correlation: ['subscription', 'correlationID'],
};

const READERS: Record<string, Reader> = {
  'OPENPIX:CHARGE_CREATED': CHARGE,
  'OPENPIX:CHARGE_COMPLETED': CHARGE,
  'OPENPIX:CHARGE_EXPIRED': CHARGE,
  'PIXGATE:CHARGE_DELETED': CHARGE,
  'OPENPIX:TRANSACTION_RECEIVED': { type: 'pix', id: ['pix', 'endToEndId'], correlation: ['charge', 'correlationID'] },
  'OPENPIX:TRANSACTION_REFUND_RECEIVED': REFUND,
  PIX_TRANSACTION_REFUND_SENT_CONFIRMED: REFUND,
  PIX_TRANSACTION_REFUND_SENT_REJECTED: REFUND,
  PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED: REFUND,
  'OPENPIX:MOVEMENT_CONFIRMED': PAYMENT,
  'OPENPIX:MOVEMENT_FAILED': PAYMENT,
  'OPENPIX:MOVEMENT_REMOVED': PAYMENT,
  DISPUTE_CREATE: DISPUTE,
  DISPUTE_ACCEPTED: DISPUTE,
  DISPUTE_REJECTED: DISPUTE,
  DISPUTE_CANCELED: DISPUTE,
  'PIXGATE:PIX_KEY_CREATED': PIX_KEY,
  'PIXGATE:PIX_KEY_DELETED': PIX_KEY,
  'PIXGATE:PIX_KEY_DEFAULT_CHANGED': PIX_KEY,
  'PIXGATE:FUNDS_RECOVERY_CREATED': RECOVERY,
  'PIXGATE:FUNDS_RECOVERY_UPDATED': RECOVERY,
  'PIXGATE:KYC_ONBOARDING_CREATED': ONBOARDING,
  'PIXGATE:KYC_ONBOARDING_SUBMITTED': ONBOARDING,
  'PIXGATE:KYC_ONBOARDING_APPROVED': ONBOARDING,
  'PIXGATE:KYC_ONBOARDING_REJECTED': ONBOARDING,
  'PIXGATE:SUBSCRIPTION_CREATED': SUBSCRIPTION,
  'PIXGATE:SUBSCRIPTION_CANCELED': SUBSCRIPTION,
  'PIXGATE:SUBSCRIPTION_VALUE_CHANGED': SUBSCRIPTION,
  'PIX_API:PIX': { type: 'pix', id: ['pix', 'endToEndId'], correlation: ['pix', 'txid'] },
  'PIX_API:REC': { type: 'rec', id: ['rec', 'idRec'] },
  'PIX_API:COBR': { type: 'cobr', id: ['cobr', 'txid'] },
};

export function eventObjectOf(type: string, payload: unknown): EventObject | null {
  const reader = READERS[type];
  if (!reader || !isJsonObject(payload)) return null;
  return {
    type: reader.type,
    id: textAt(payload, reader.id),
    correlationId: reader.correlation ? textAt(payload, reader.correlation) : null,
  };
}
