// The JSON a charge row keeps, typed from the specs (generated/): the standard's object of a cob
// or cobv without what the row's columns hold, and the platform API's settings beside it.
// It imports nothing at run time, so the tables (src/db/tables/charges.ts) can name these types
// without a cycle.
import type { components } from '../../../generated/pix.types';
import type { components as platformComponents } from '../../../generated/platform.types';

export type PixSchemas = components['schemas'];
type PlatformSchemas = platformComponents['schemas'];

// txid, revisao and status are columns; loc, location and pixCopiaECola follow from the
// current location, which may change without a revision.
type NotStored = 'txid' | 'revisao' | 'status' | 'loc' | 'location' | 'pixCopiaECola';

export type StoredCobBody = Omit<PixSchemas['CobGerada'], NotStored>;
// chave is optional in CobVGerada (it comes from CobBase) but every cobv is made with one.
export type StoredCobvBody = Omit<PixSchemas['CobVGerada'], NotStored> & { chave: string };
export type StoredChargeBody = StoredCobBody | StoredCobvBody;

export type Recebedor = StoredCobvBody['recebedor'];
export type CobvValor = StoredCobvBody['valor'];

// Only a cobv's body has a due date (the row's kind says the same; this lets the compiler see it).
export function isCobvBody(body: StoredChargeBody): body is StoredCobvBody {
  return 'dataDeVencimento' in body.calendario;
}

// The body of a charge the caller knows the kind of (by its row or its location): a body of the
// other kind is a broken invariant, not a request to refuse.
export function expectCobBody(body: StoredChargeBody): StoredCobBody {
  if (isCobvBody(body)) throw new Error('expected the body of an immediate charge (cob)');
  return body;
}

export function expectCobvBody(body: StoredChargeBody): StoredCobvBody {
  if (!isCobvBody(body)) throw new Error('expected the body of a due-date charge (cobv)');
  return body;
}

type Withdrawal = NonNullable<PixSchemas['CobValor']['retirada']>;
// saque and troco each optional (the standard's union sends one of them).
export interface WithdrawalParts {
  saque?: Extract<Withdrawal, { saque: unknown }>['saque'];
  troco?: Extract<Withdrawal, { troco: unknown }>['troco'];
}

// The withdrawal (saque) or change (troco) of a cob's valor, whichever it has.
export function withdrawalOf(valor: Pick<PixSchemas['CobValor'], 'retirada'>): WithdrawalParts {
  return valor.retirada ?? {};
}

// A batch's item (cobv_batch_items.request) as PUT /lotecobv/{id} sent it, and the
// problem that refused it (cobv_batch_items.problem).
export type BatchItemRequest = PixSchemas['LoteCobVSolicitado']['cobsv'][number];
export type BatchItemProblem = PixSchemas['Problem'];

// What the platform API keeps beside the standard's body (charges.platform): the create
// payload's options the standard has no field for, the customer as the platform shows it and
// the subscription that made the charge. The Pix API stores {}.
export interface PlatformSettings {
  comment?: string;
  customer?: PlatformSchemas['Customer'];
  ensureSameTaxID?: boolean;
  fixedLocation?: boolean;
  paymentLinkID?: string;
  daysForDueDate?: number;
  daysAfterDueDate?: number;
  enableCashbackPercentage?: boolean;
  enableCashbackExclusivePercentage?: boolean;
  subaccount?: string;
  splits?: PlatformSchemas['Split'][];
  subscription?: string;
}
