// Amount of a due-date Pix charge (cobv) for an intended payment date, following the Pix API's
// multa / juros / abatimento / desconto modalities, plus the platform API's discount shape.
//
// Conventions (all arithmetic is exact BigInt rational math, each component rounded once, half up):
// - every percentage is applied to the original amount;
// - "valor fixo" values are reais with at most 2 decimals ("2.50" = 250 cents), converted exactly;
// - juros are counted from the day after the due date, in calendar days (modalities 1-4) or business
//   days (5-8); a monthly rate is pro-rated as rate/30 per day and a yearly rate as rate/365 per day,
//   for both the calendar-day and business-day modalities;
// - when the due date is not a business day, paying on the next business day is on time
//   (no multa/juros); once late, the days are still counted from the original due date;
// - discounts apply only when paymentDate <= dueDate; multa and juros only when late;
// - abatimento is capped at the original amount and desconto at what is left after it, so that
//   final = original - abatimento - desconto + juros + multa always holds and is never below 0.
import { type Cents, type Result, cents, fail, ok } from './money';
import { addCalendarDays, businessDaysBetween, daysBetween, isValidDate, nextBusinessDay } from './business-days';

export const DAYS_PER_MONTH = 30n;
export const DAYS_PER_YEAR = 365n;

export interface CobvDescontoDataFixa {
  data: string;
  valorPerc: string;
}

// Modalities are numbers as the standard's schema has them: dueChargeAmount refuses unknown ones.
export interface CobvDesconto {
  modalidade: number;
  valorPerc?: string;
  descontoDataFixa?: CobvDescontoDataFixa[];
}

// A discount as the standard sends it: dates for modalidade 1 and 2, a rate for the others.
export type CobvDescontoSent =
  { modalidade: number; descontoDataFixa: CobvDescontoDataFixa[] } | { modalidade: number; valorPerc: string };

export interface DueChargeInput {
  original: Cents;
  dueDate: string;
  paymentDate: string;
  validadeAposVencimento: number;
  multa?: { modalidade: number; valorPerc: string };
  juros?: { modalidade: number; valorPerc: string };
  abatimento?: { modalidade: number; valorPerc: string };
  desconto?: CobvDesconto;
}

export interface DueChargeAmounts {
  original: Cents;
  abatimento: Cents;
  desconto: Cents;
  juros: Cents;
  multa: Cents;
  final: Cents;
}

const VALUE_RE = /^(\d{1,15})(?:\.(\d{1,2}))?$/;
const PERCENT_RE = /^(\d{1,15})(?:\.(\d{1,15}))?$/;

// Exact cents of a reais decimal string ("12.3" -> 1230n), or null when malformed.
function reaisToCents(s: string): bigint | null {
  const m = VALUE_RE.exec(s);
  if (!m) return null;
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

// A percent decimal string as the exact fraction num/den of 1 ("2.5" -> 25/1000), or null.
function percentFraction(s: string): { num: bigint; den: bigint } | null {
  const m = PERCENT_RE.exec(s);
  if (!m) return null;
  const fraction = m[2] ?? '';
  return { num: BigInt(m[1]! + fraction), den: 100n * 10n ** BigInt(fraction.length) };
}

// num/den rounded half up (both non-negative).
function roundHalfUp(num: bigint, den: bigint): bigint {
  const q = num / den;
  return (num % den) * 2n >= den ? q + 1n : q;
}

// Converts a non-negative BigInt amount to Cents (throws when it exceeds the safe range).
function toCents(v: bigint): Cents {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount ${v} is too large`);
  return cents(Number(v));
}

type Amount = { ok: true; cents: bigint } | { ok: false; reason: string };
const bad = (reason: string): Amount => ({ ok: false, reason });
const good = (v: bigint): Amount => ({ ok: true, cents: v });

// value in reais times a count of days.
function valueTimes(field: string, valorPerc: string, count: bigint): Amount {
  const v = reaisToCents(valorPerc);
  return v === null ? bad(`${field} must be a value in reais like "2.50"`) : good(v * count);
}

// percent of original times count / divisor, rounded once.
function percentTimes(field: string, original: bigint, valorPerc: string, count: bigint, divisor = 1n): Amount {
  const p = percentFraction(valorPerc);
  if (p === null) return bad(`${field} must be a percentage like "2.00"`);
  return good(roundHalfUp(original * p.num * count, p.den * divisor));
}

// Computes what a cobv costs when paid on paymentDate (abatimento, desconto, juros, multa, final).
export function dueChargeAmount(input: DueChargeInput): Result<DueChargeAmounts> {
  const { dueDate, paymentDate, validadeAposVencimento } = input;
  if (!Number.isSafeInteger(input.original) || input.original < 0) {
    return fail('original must be a non-negative integer amount of cents');
  }
  if (!isValidDate(dueDate)) return fail('dueDate must be a calendar date YYYY-MM-DD');
  if (!isValidDate(paymentDate)) return fail('paymentDate must be a calendar date YYYY-MM-DD');
  if (!Number.isSafeInteger(validadeAposVencimento) || validadeAposVencimento < 0) {
    return fail('validadeAposVencimento must be a non-negative integer number of days');
  }
  if (paymentDate > addCalendarDays(dueDate, validadeAposVencimento)) {
    return fail('payment date is after the validity of the charge');
  }
  const original = BigInt(input.original);
  const late = paymentDate > nextBusinessDay(dueDate);
  const early = paymentDate <= dueDate;

  let abatimento = 0n;
  if (input.abatimento) {
    const { modalidade, valorPerc } = input.abatimento;
    const r =
      modalidade === 1
        ? valueTimes('abatimento.valorPerc', valorPerc, 1n)
        : modalidade === 2
          ? percentTimes('abatimento.valorPerc', original, valorPerc, 1n)
          : bad('abatimento.modalidade must be 1 or 2');
    if (!r.ok) return fail(r.reason);
    abatimento = r.cents > original ? original : r.cents;
  }

  let desconto = 0n;
  if (input.desconto) {
    // computed (and so validated) even when not early; only applied when paid on or before the due date
    const r = descontoAmount(original, dueDate, early ? paymentDate : dueDate, input.desconto);
    if (!r.ok) return fail(r.reason);
    if (early) desconto = r.cents > original - abatimento ? original - abatimento : r.cents;
  }

  let multa = 0n;
  if (input.multa) {
    const { modalidade, valorPerc } = input.multa;
    const r =
      modalidade === 1
        ? valueTimes('multa.valorPerc', valorPerc, 1n)
        : modalidade === 2
          ? percentTimes('multa.valorPerc', original, valorPerc, 1n)
          : bad('multa.modalidade must be 1 or 2');
    if (!r.ok) return fail(r.reason);
    if (late) multa = r.cents;
  }

  let juros = 0n;
  if (input.juros) {
    const r = jurosAmount(original, dueDate, paymentDate, input.juros, late);
    if (!r.ok) return fail(r.reason);
    juros = r.cents;
  }

  return ok({
    original: input.original,
    abatimento: toCents(abatimento),
    desconto: toCents(desconto),
    juros: toCents(juros),
    multa: toCents(multa),
    final: toCents(original - abatimento - desconto + juros + multa),
  });
}

// Juros for `late` payments (0 otherwise, but the rule is still validated).
function jurosAmount(
  original: bigint,
  dueDate: string,
  paymentDate: string,
  juros: NonNullable<DueChargeInput['juros']>,
  late: boolean,
): Amount {
  const { modalidade, valorPerc } = juros;
  const f = 'juros.valorPerc';
  const calendar = BigInt(late ? daysBetween(dueDate, paymentDate) : 0);
  const business = BigInt(late ? businessDaysBetween(dueDate, paymentDate) : 0);
  switch (modalidade) {
    case 1:
      return valueTimes(f, valorPerc, calendar);
    case 2:
      return percentTimes(f, original, valorPerc, calendar);
    case 3:
      return percentTimes(f, original, valorPerc, calendar, DAYS_PER_MONTH);
    case 4:
      return percentTimes(f, original, valorPerc, calendar, DAYS_PER_YEAR);
    case 5:
      return valueTimes(f, valorPerc, business);
    case 6:
      return percentTimes(f, original, valorPerc, business);
    case 7:
      return percentTimes(f, original, valorPerc, business, DAYS_PER_MONTH);
    case 8:
      return percentTimes(f, original, valorPerc, business, DAYS_PER_YEAR);
    default:
      return bad('juros.modalidade must be 1 to 8');
  }
}

// Desconto for a payment on or before the due date.
function descontoAmount(original: bigint, dueDate: string, paymentDate: string, desconto: CobvDesconto): Amount {
  const { modalidade, valorPerc, descontoDataFixa } = desconto;
  if (modalidade === 1 || modalidade === 2) {
    if (!descontoDataFixa || descontoDataFixa.length === 0) {
      return bad('desconto.descontoDataFixa is required for modalidade 1 and 2');
    }
    for (const item of descontoDataFixa) {
      if (!isValidDate(item.data)) return bad('desconto.descontoDataFixa[].data must be a calendar date YYYY-MM-DD');
      const r =
        modalidade === 1
          ? valueTimes('desconto.descontoDataFixa[].valorPerc', item.valorPerc, 1n)
          : percentTimes('desconto.descontoDataFixa[].valorPerc', original, item.valorPerc, 1n);
      if (!r.ok) return r;
    }
    // the item of the first fixed date not yet passed: the earliest data >= paymentDate
    const live = descontoDataFixa.filter((i) => i.data >= paymentDate).sort((a, b) => (a.data < b.data ? -1 : 1));
    const item = live[0];
    if (!item) return good(0n);
    return modalidade === 1
      ? valueTimes('desconto.descontoDataFixa[].valorPerc', item.valorPerc, 1n)
      : percentTimes('desconto.descontoDataFixa[].valorPerc', original, item.valorPerc, 1n);
  }
  if (modalidade < 3 || modalidade > 6 || !Number.isInteger(modalidade))
    return bad('desconto.modalidade must be 1 to 6');
  if (valorPerc === undefined) return bad('desconto.valorPerc is required for modalidade 3 to 6');
  const f = 'desconto.valorPerc';
  const calendar = BigInt(Math.max(0, daysBetween(paymentDate, dueDate)));
  const business = BigInt(Math.max(0, businessDaysBetween(paymentDate, dueDate)));
  switch (modalidade) {
    case 3:
      return valueTimes(f, valorPerc, calendar);
    case 4:
      return valueTimes(f, valorPerc, business);
    case 5:
      return percentTimes(f, original, valorPerc, calendar);
    default:
      return percentTimes(f, original, valorPerc, business);
  }
}

// ---------------------------------------------------------------------------------------------
// Platform API discounts (OVERDUE charges)

export const PLATFORM_DISCOUNT_MODALITIES = {
  FIXED_VALUE_UNTIL_SPECIFIED_DATE: 1,
  PERCENTAGE_UNTIL_SPECIFIED_DATE: 2,
  VALUE_PER_RUNNING_DAY_ADVANCE: 3,
  VALUE_PER_BUSINESS_DAY_ADVANCE: 4,
  PERCENTAGE_PER_RUNNING_DAY_ADVANCE: 5,
  PERCENTAGE_PER_BUSINESS_DAY_ADVANCE: 6,
} as const;

export type PlatformDiscountModality = keyof typeof PLATFORM_DISCOUNT_MODALITIES;

/**
 * The platform's discount settings. `value` is cents for the value modalities and basis points
 * (1 bp = 0.01%) for the percentage ones. Date modalities use `discountFixedDate` (`daysActive` =
 * how many days before the due date the item stays live); per-day modalities take their rate from
 * `value`, or from the first `discountFixedDate` item when `value` is absent.
 */
export interface PlatformDiscount {
  modality: PlatformDiscountModality;
  value?: number;
  discountFixedDate?: Array<{ daysActive: number; value: number }>;
}

// Decimal string with 2 decimals of a non-negative integer of hundredths (150 -> "1.50").
function hundredths(n: number): string {
  return `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

// Maps the platform's discount settings onto the Pix standard's cobv desconto for a due date.
export function platformDiscountToCobv(discount: PlatformDiscount, dueDate: string): Result<CobvDescontoSent> {
  if (!isValidDate(dueDate)) return fail('dueDate must be a calendar date YYYY-MM-DD');
  if (!Object.hasOwn(PLATFORM_DISCOUNT_MODALITIES, discount.modality)) {
    return fail(`unknown discount modality ${JSON.stringify(discount.modality)}`);
  }
  const modalidade = PLATFORM_DISCOUNT_MODALITIES[discount.modality];
  const items = discount.discountFixedDate ?? [];
  for (const item of items) {
    if (!isCount(item.daysActive)) return fail('discountFixedDate[].daysActive must be a non-negative integer');
    if (!isCount(item.value)) return fail('discountFixedDate[].value must be a non-negative integer');
  }
  if (modalidade === 1 || modalidade === 2) {
    if (items.length === 0) return fail(`discountFixedDate is required for ${discount.modality}`);
    // The platform grants the largest discount still live; the standard the one of the first
    // date not passed yet. Each date carrying the largest value from it on makes them agree,
    // so the one body prices both APIs.
    const byDate = items
      .map((i) => ({ data: addCalendarDays(dueDate, -i.daysActive), value: i.value }))
      .sort((a, b) => (a.data < b.data ? -1 : a.data > b.data ? 1 : 0));
    const descontoDataFixa = byDate.map((item, i) => ({
      data: item.data,
      valorPerc: hundredths(Math.max(...byDate.slice(i).map((later) => later.value))),
    }));
    return ok({ modalidade, descontoDataFixa });
  }
  const rate = discount.value ?? items[0]?.value;
  if (!isCount(rate)) return fail(`value is required for ${discount.modality} (a non-negative integer)`);
  return ok({ modalidade, valorPerc: hundredths(rate) });
}

// The platform's view of a cobv's valor: its percentage fine and interest and its discount in
// the platform's terms (what the platform API answers, whichever API set or revised them).
// Fixed-amount fines and interests have no platform form and are left out (the amounts due
// still count them).
export function platformSettingsOf(
  valor: Pick<DueChargeInput, 'multa' | 'juros' | 'desconto'>,
  dueDate: string,
): { fines?: { value: number }; interests?: { value: number }; discount?: PlatformDiscount } {
  const bp = (s: string) => Math.round(Number(s) * 100);
  const out: { fines?: { value: number }; interests?: { value: number }; discount?: PlatformDiscount } = {};
  if (valor.multa?.modalidade === 2) out.fines = { value: bp(valor.multa.valorPerc) };
  if (valor.juros?.modalidade === 2) out.interests = { value: bp(valor.juros.valorPerc) };
  const d = valor.desconto;
  const modality = (Object.keys(PLATFORM_DISCOUNT_MODALITIES) as PlatformDiscountModality[]).find(
    (name) => PLATFORM_DISCOUNT_MODALITIES[name] === d?.modalidade,
  );
  if (d && modality) {
    out.discount = d.descontoDataFixa
      ? {
          modality,
          discountFixedDate: d.descontoDataFixa.map((i) => ({
            daysActive: daysBetween(i.data, dueDate),
            value: bp(i.valorPerc),
          })),
        }
      : { modality, value: bp(d.valorPerc ?? '0') };
  }
  return out;
}
