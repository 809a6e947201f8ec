// What an event carries (events.payload): for a Pix API callback the standard's objects, by
// event type; for a platform webhook the objects of its body ({charge, pix, company,
// account}, {payment, transaction}...), any JSON object, since the spec gives a webhook body
// no schema and each area writes its own.
import type { components } from '../../../generated/pix.types';
import type { JsonObject } from '../../lib/json';

type PixSchemas = components['schemas'];

export interface PixCallbackPayloads {
  'PIX_API:PIX': { chave: string; pix: PixSchemas['Pix'] };
  'PIX_API:REC': { rec: PixSchemas['RecNotification'] };
  'PIX_API:COBR': { cobr: PixSchemas['CobRNotification'] };
}

export type PixCallbackType = keyof PixCallbackPayloads;

export type EventPayload<T extends string = string> = T extends PixCallbackType ? PixCallbackPayloads[T] : JsonObject;
