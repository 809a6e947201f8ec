// The spec's Transaction object from a row of `transactions`: its type in the API's words,
// its own side (the company's account) and its counterparty from `details`. Pure, and
// defensive: details are written by several areas, so a value of the wrong type is left out
// rather than breaking the contract.
import type { components } from '../../generated/platform.types';
import { taxIdView } from '../customers/customers.public';
import { isJsonObject, type JsonObject } from '../lib/json';
import { OWN_ISPB, OWN_PSP_NAME } from '../lib/psp';
import type {
  CounterpartyDetails,
  TransactionDetails,
  TransactionType,
  TransactionWithAccount,
} from './transactions.repository';

export type TransactionView = components['schemas']['Transaction'];
export type ApiTransactionType = components['schemas']['TransactionType'];
type Party = components['schemas']['Party'];
type CustomerView = components['schemas']['Customer'];
type SplitPartView = components['schemas']['SplitPart'];

// The stored types as the API names them (REVERSAL: a refund received of a Pix sent).
export const API_TYPE: Record<TransactionType, ApiTransactionType> = {
  PIX_IN: 'PAYMENT',
  PIX_OUT: 'PIX_OUT',
  BILL_PAYMENT: 'BILL_PAYMENT',
  REFUND_OUT: 'REFUND',
  REFUND_IN: 'REVERSAL',
  WITHDRAW: 'WITHDRAW',
  FEE: 'FEE',
  INTERNAL_TRANSFER: 'INTERNAL_TRANSFER',
};

// The stored types an API type filter selects (none for the kinds this server never records).
export function storedTypesOf(type: ApiTransactionType): TransactionType[] {
  return (Object.keys(API_TYPE) as TransactionType[]).filter((t) => API_TYPE[t] === type);
}

const INCOMING: ReadonlySet<string> = new Set(['PIX_IN', 'REFUND_IN']);
const CHARGE_STATUSES: ReadonlySet<string> = new Set(['ACTIVE', 'COMPLETED', 'EXPIRED']);
const TAX_ID = /^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$/;

// An object of `details`, read as untrusted: each value is checked before it is shown.
function obj(v: unknown): JsonObject | undefined {
  return isJsonObject(v) ? v : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
function int(v: unknown): number | undefined {
  return Number.isSafeInteger(v) ? (v as number) : undefined;
}
function isoDate(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
// Only the keys whose values are defined (the spec's objects have optional fields only).
function compact<T extends object>(o: T): T | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(out).length ? out : undefined;
}
function taxIdOf(v: unknown): { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' } | undefined {
  const raw = str(v) ?? str(obj(v)?.taxID);
  const bare = raw?.replace(/[.\-/\s]/g, '').toUpperCase();
  return bare && TAX_ID.test(bare) ? taxIdView(bare) : undefined;
}

function personOf(v: unknown): CustomerView | undefined {
  const o = obj(v);
  if (!o) return undefined;
  return compact({
    name: str(o.name),
    email: str(o.email),
    phone: str(o.phone),
    taxID: taxIdOf(o.taxID ?? o.taxId),
    correlationID: str(o.correlationID),
  });
}

function counterpartyOf(v: unknown): Party | undefined {
  const c: CounterpartyDetails | undefined = obj(v);
  if (!c) return undefined;
  const pixKey = str(c.pixKey);
  return compact({
    pixKey: pixKey ? compact({ pixKey, type: str(c.pixKeyType) }) : undefined,
    account: compact({ branch: str(c.branch), account: str(c.account), accountType: str(c.accountType) }),
    psp: compact({ id: str(c.ispb), name: str(c.bank) }),
    holder: compact({ name: str(c.name), taxID: taxIdOf(c.taxID ?? c.taxId) }),
  });
}

// A Party written by another area: only the spec's fields, each of the right type.
function partyOf(v: unknown): Party | undefined {
  const p = obj(v);
  if (!p) return undefined;
  const key = obj(p.pixKey);
  const account = obj(p.account);
  const psp = obj(p.psp);
  const holder = obj(p.holder);
  return compact({
    pixKey: key && compact({ pixKey: str(key.pixKey), type: str(key.type) }),
    account:
      account &&
      compact({ branch: str(account.branch), account: str(account.account), accountType: str(account.accountType) }),
    psp: psp && compact({ id: str(psp.id), name: str(psp.name), code: str(psp.code) }),
    holder:
      holder &&
      compact({ name: str(holder.name), nameFriendly: str(holder.nameFriendly), taxID: taxIdOf(holder.taxID) }),
    taxID: taxIdOf(p.taxID),
  });
}

const SPLIT_TYPES: ReadonlySet<string> = new Set(['SPLIT_INTERNAL_TRANSFER', 'SPLIT_SUB_ACCOUNT', 'SPLIT_PARTNER']);

// The parts of a paid split charge (written by src/splits).
function splitsOf(v: unknown): TransactionView['splits'] {
  if (!Array.isArray(v)) return undefined;
  const parts = v.flatMap((item) => {
    const o = obj(item);
    const pixKey = str(o?.pixKey);
    const value = int(o?.value);
    const status = o?.status === 'SENT' ? 'SENT' : o?.status === 'KEPT' ? 'KEPT' : undefined;
    if (!pixKey || value === undefined || !status) return [];
    const splitType = SPLIT_TYPES.has(String(o!.splitType)) ? (o!.splitType as SplitPartView['splitType']) : undefined;
    return [{ pixKey, value, status, ...(splitType ? { splitType } : {}) } as SplitPartView];
  });
  return parts.length ? parts : undefined;
}

function ownParty(row: TransactionWithAccount): Party {
  return {
    account: { branch: row.branch, account: row.account_number, accountType: 'TRAN' },
    psp: { id: OWN_ISPB, name: OWN_PSP_NAME },
    holder: {
      name: row.company_official_name,
      nameFriendly: row.company_trade_name,
      taxID: taxIdView(row.company_tax_id),
    },
  };
}

export function transactionView(row: TransactionWithAccount): TransactionView {
  // Typed as written today; a row written before may differ, hence the checks below.
  const d: TransactionDetails = obj(row.details) ?? {};
  const time = row.created_at.toISOString();
  const endToEndId = row.end_to_end_id ?? undefined;
  const charge = obj(d.charge);
  const qr = obj(d.pixQrCode);
  const txid = [str(d.txid), str(d.transactionID), str(charge?.transactionID)].find((t) => t && t !== '***');
  const incoming = INCOMING.has(row.type);
  const counterparty = counterpartyOf(incoming ? d.payer : d.destination);
  const infoPagador = str(d.infoPagador) ?? str(d.comment);
  const view: TransactionView = {
    value: row.value,
    time,
    ...(endToEndId ? { endToEndId } : {}),
    ...(txid ? { transactionID: txid } : {}),
    ...(infoPagador ? { infoPagador } : {}),
    type: API_TYPE[row.type as TransactionType] ?? 'PAYMENT',
    globalID: row.id,
  };
  const chargeView = compact({
    status: CHARGE_STATUSES.has(String(charge?.status))
      ? (charge!.status as 'ACTIVE' | 'COMPLETED' | 'EXPIRED')
      : undefined,
    value: int(charge?.value),
    correlationID: str(charge?.correlationID) ?? str(d.chargeCorrelationID),
    transactionID: str(charge?.transactionID),
    createdAt: isoDate(charge?.createdAt),
  });
  if (chargeView) view.charge = chargeView;
  const qrView =
    qr && compact({ name: str(qr.name), correlationID: str(qr.correlationID), identifier: str(qr.identifier) });
  if (qrView) view.pixQrCode = qrView;
  const customer = personOf(d.customer);
  if (customer) view.customer = customer;
  const payer = incoming ? personOf(d.payer) : undefined;
  if (payer) view.payer = compact({ name: payer.name, taxID: payer.taxID })!;
  if (row.type === 'WITHDRAW') view.withdraw = { value: row.value, time, ...(endToEndId ? { endToEndId } : {}) };
  const own = ownParty(row);
  const debitParty = partyOf(d.debitParty) ?? (incoming ? counterparty : own);
  const creditParty = partyOf(d.creditParty) ?? (incoming ? own : counterparty);
  if (debitParty) view.debitParty = debitParty;
  if (creditParty) view.creditParty = creditParty;
  const splits = splitsOf(d.splits);
  if (splits) view.splits = splits;
  return view;
}
