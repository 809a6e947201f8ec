// The body a webhook carries for an event: what the delivery sends, byte for byte, and what
// the events API shows as the event's payload.
// - Pix API callbacks: exactly the standard's body ({pix: [...]}, {recs: [...]}, {cobsr: [...]}).
// - Platform webhooks: {event, eventId, ...the event's objects}, the account saying its
//   environment; a test event adds "test": true.
// - The test event a platform webhook gets when it is created: the public reference's
//   {data_criacao, event} and nothing else, so that receivers written for it recognise it.
import type { components } from '../../generated/pix.types';
import type { EventRow } from '../db/schema';
import { isJsonObject, type JsonObject } from '../lib/json';
import type { EventPayload, PixCallbackPayloads, PixCallbackType } from '../db/documents/event-payloads';

type PixSchemas = components['schemas'];

// The object type of a new webhook's test event (its object is the webhook).
export const WEBHOOK_OBJECT = 'webhook';

const PIX_CALLBACK_BODIES: { [T in PixCallbackType]: (p: PixCallbackPayloads[T]) => unknown } = {
  'PIX_API:PIX': (p): PixSchemas['WebhookPixNotificacao'] => ({ pix: [p.pix] }),
  'PIX_API:REC': (p): PixSchemas['WebhookRecNotificacao'] => ({ recs: [p.rec] }),
  'PIX_API:COBR': (p): PixSchemas['WebhookCobRNotificacao'] => ({ cobsr: [p.cobr] }),
};

export function isPixCallback(type: string): type is PixCallbackType {
  return Object.hasOwn(PIX_CALLBACK_BODIES, type);
}

// A callback's body from its stored payload, which recordEvent checked against its type.
function callbackBody<T extends PixCallbackType>(type: T, payload: EventPayload): unknown {
  return PIX_CALLBACK_BODIES[type](payload as PixCallbackPayloads[T]);
}

// What kind of account received the event: a sandbox (test) account or a live one, as the
// public reference tells them apart (account.environment).
export type AccountEnvironment = 'TESTING' | 'PRODUCTION';

export type BodySource = Pick<EventRow, 'id' | 'type' | 'payload' | 'is_test' | 'object_type'>;

export function webhookBodyObjectOf(event: BodySource, environment: AccountEnvironment): JsonObject {
  if (isPixCallback(event.type)) return callbackBody(event.type, event.payload) as JsonObject;
  if (event.is_test && event.object_type === WEBHOOK_OBJECT)
    return { data_criacao: event.payload.data_criacao, event: event.type };
  const { event: _event, eventId: _eventId, test: _test, ...objects } = event.payload;
  const account = objects.account;
  if (isJsonObject(account)) objects.account = { ...account, environment };
  return { event: event.type, eventId: event.id, ...(event.is_test ? { test: true } : {}), ...objects };
}

export function webhookBodyOf(event: BodySource, environment: AccountEnvironment): string {
  return JSON.stringify(webhookBodyObjectOf(event, environment));
}
