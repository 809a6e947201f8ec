// Rules of the one charge model that both APIs read: expiry and validity, the platform status
// derived from the standard's status, what is due on a payment date, the payload location
// URL and the BR Code. Pure functions over a charge row (no SQL here).
import type { Charge, Company, Location } from '../db/schema';
import { buildDynamicBrCode } from '../lib/brcode';
import { BoundedMap } from '../lib/bounded-map';
import { brasiliaDate, endOfBrasiliaDay } from '../lib/brasilia';
import { addCalendarDays } from '../lib/business-days';
import { dueChargeAmount, type DueChargeAmounts } from '../lib/due-charge';
import { toEmvText } from '../lib/text';
import { cents, parseDecimalAmount, type Cents, type Result, fail, ok } from '../lib/money';
import {
  expectCobvBody,
  isCobvBody,
  withdrawalOf,
  type CobvValor,
  type StoredChargeBody,
} from '../db/documents/charge-body';

// The sandbox keeps no postal address of companies: their codes and due-date charges use this
// city and address of the receiver.
export const MERCHANT_CITY = 'SAO PAULO';
export const RECEIVER_ADDRESS = {
  logradouro: 'Avenida Paulista, 1000',
  cidade: 'Sao Paulo',
  uf: 'SP',
  cep: '01310100',
};
export const DEFAULT_COB_EXPIRATION = 86400;
export const DEFAULT_VALIDITY_AFTER_DUE = 30;

export type PlatformStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED';

// The last day a cobv can be paid (dueDate + validadeAposVencimento).
export function cobvLastDay(charge: Pick<Charge, 'due_date' | 'validity_after_due'>): string {
  return addCalendarDays(charge.due_date!, charge.validity_after_due ?? 0);
}

// When a charge stops being payable: a cob at creation + expiracao (its expires_at), a cobv at
// the end of its last day (dueDate + validity) in Brasília, the standard's dates being civil
// dates there: payable through 23:59:59.999 America/Sao_Paulo. Stored as charges.payable_until
// whenever the charge is written: every read, the payer's check and the expiry job compare
// that column.
export function payableUntilOf(charge: Pick<Charge, 'kind' | 'expires_at' | 'due_date' | 'validity_after_due'>): Date {
  if (charge.kind === 'cob') return charge.expires_at!;
  return endOfBrasiliaDay(cobvLastDay(charge));
}

// The day a charge's dates are compared with at an instant: the civil date in Brasília.
export function chargeDayOf(at: Date): string {
  return brasiliaDate(at);
}

export function isPastExpiry(charge: Pick<Charge, 'payable_until'>, now: Date): boolean {
  return charge.payable_until.getTime() <= now.getTime();
}

// The platform API's status: COMPLETED when paid; EXPIRED when removed or active past its
// expiry; ACTIVE otherwise.
export function platformStatusOf(charge: Charge, now: Date): PlatformStatus {
  if (charge.status === 'CONCLUIDA') return 'COMPLETED';
  if (charge.status !== 'ATIVA') return 'EXPIRED';
  return isPastExpiry(charge, now) ? 'EXPIRED' : 'ACTIVE';
}

export function cobvValorOf(charge: Charge): CobvValor {
  return expectCobvBody(charge.body).valor;
}

// What a cobv costs when paid on `paymentDate` (YYYY-MM-DD): the standard's rules over its
// body alone, whichever API created or revised it (a platform discount is translated into the
// body's desconto when the charge is made).
export function cobvAmountsOn(charge: Charge, paymentDate: string): Result<DueChargeAmounts> {
  const valor = cobvValorOf(charge);
  return dueChargeAmount({
    original: cents(charge.value),
    dueDate: charge.due_date!,
    paymentDate,
    validadeAposVencimento: charge.validity_after_due ?? 0,
    ...(valor.multa ? { multa: valor.multa } : {}),
    ...(valor.juros ? { juros: valor.juros } : {}),
    ...(valor.abatimento ? { abatimento: valor.abatimento } : {}),
    ...(valor.desconto ? { desconto: valor.desconto } : {}),
  });
}

// How much a payer must pay at `at` (cob: the original value; cobv: final for that day).
export function amountDueAt(charge: Charge, at: Date): Result<Cents> {
  if (charge.kind === 'cob') return ok(cents(charge.value));
  const amounts = cobvAmountsOn(charge, chargeDayOf(at));
  return amounts.ok ? ok(amounts.value.final) : fail(amounts.reason);
}

export function valueOfBody(body: { valor?: { original?: string } }): Cents | undefined {
  const parsed = body.valor?.original === undefined ? undefined : parseDecimalAmount(body.valor.original);
  return parsed?.ok ? parsed.value : undefined;
}

// Locations and BR Codes ------------------------------------------------------------------

// The location of a payload as the standard shows it and the BR Code carries it: no scheme.
export function locationUrlOf(publicUrl: string, location: Pick<Location, 'kind' | 'token'>): string {
  const host = publicUrl.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
  return location.kind === 'cobv' ? `${host}/qr/v2/cobv/${location.token}` : `${host}/qr/v2/${location.token}`;
}

// The token at the end of a location URL (with or without scheme, query or trailing slash).
export function tokenOfLocationUrl(locationUrl: string): string | undefined {
  const path = locationUrl.split(/[?#]/)[0]!.replace(/\/+$/, '');
  const token = path.slice(path.lastIndexOf('/') + 1);
  return token || undefined;
}

// The merchant name of a BR Code (field 59): the trade name, else the name, as long as it has
// characters that survive the ASCII clean-up (a name in another script has none: a code
// cannot be built on it, so the code then names the receiver generically).
export const FALLBACK_MERCHANT_NAME = 'RECEBEDOR PIX';
export function merchantNameOf(company: Pick<Company, 'trade_name' | 'name'>): string {
  for (const name of [company.trade_name, company.name]) if (name && toEmvText(name, 25)) return name;
  return FALLBACK_MERCHANT_NAME;
}

// Whether a cob's code carries its amount: not when the payer may change the amount or the
// withdrawal (modalidadeAlteracao 1).
function hasFixedAmount(body: StoredChargeBody): boolean {
  if (isCobvBody(body)) return false;
  const { saque, troco } = withdrawalOf(body.valor);
  return body.valor.modalidadeAlteracao !== 1 && (saque ?? troco)?.modalidadeAlteracao !== 1;
}

// The dynamic BR Code of a charge served at `location`. A cob's code carries its amount
// unless the payer may change it (modalidadeAlteracao 1); a cobv's amount depends on the
// payment date, so its code carries none.
export function brCodeOf(
  publicUrl: string,
  charge: Charge,
  location: Pick<Location, 'kind' | 'token'>,
  company: Pick<Company, 'trade_name' | 'name'>,
): string {
  const amount = charge.kind === 'cob' && hasFixedAmount(charge.body) ? charge.value : undefined;
  // Everything the code is made of, so a change to any part is a new entry, never a stale one.
  const key = `${publicUrl}\n${location.kind}\n${location.token}\n${company.trade_name}\n${company.name}\n${amount}`;
  let code = brCodes.get(key);
  if (code === undefined) {
    code = buildDynamicBrCode({
      locationUrl: locationUrlOf(publicUrl, location),
      merchantName: merchantNameOf(company),
      merchantCity: MERCHANT_CITY,
      ...(amount === undefined ? {} : { amount: cents(amount) }),
    });
    brCodes.set(key, code);
  }
  return code;
}

// The codes made last, by what they are made of: every read of a charge shows its code, and
// making one (EMV text of the names, the fields, the CRC) cost about 3% of a read's CPU.
const brCodes = new BoundedMap<string, string>(10_000);

export function paymentLinkUrlOf(publicUrl: string, paymentLinkId: string): string {
  return `${publicUrl}/pay/${encodeURIComponent(paymentLinkId)}`;
}

export function qrCodeImageUrlOf(publicUrl: string, paymentLinkId: string): string {
  return `${publicUrl}/openpix/charge/brcode/image/${encodeURIComponent(paymentLinkId)}.png`;
}

export function globalIdOf(chargeId: string): string {
  return Buffer.from(`Charge:${chargeId}`).toString('base64');
}

// The charge id inside a globalID, or undefined when the string is not one.
export function chargeIdOfGlobalId(globalId: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+=*$/.test(globalId)) return undefined;
  const decoded = Buffer.from(globalId, 'base64').toString('utf8');
  return decoded.startsWith('Charge:') ? decoded.slice('Charge:'.length) : undefined;
}
