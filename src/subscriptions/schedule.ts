// When a subscription generates its charges (pure). Dates are UTC calendar days.
import type { components } from '../../generated/platform.types';

// The periods as answers name them, and the spellings a request may use (SEMIANNUALY and
// ANNUALY are sent by existing clients, QUARTERLY is the platform reference's TRIMONTHLY).
export type Frequency = NonNullable<components['schemas']['Subscription']['frequency']>;
export type FrequencyInput = NonNullable<components['schemas']['SubscriptionCreatePayload']['frequency']>;

const MONTHS: Record<Exclude<Frequency, 'WEEKLY'>, number> = {
  MONTHLY: 1,
  BIMONTHLY: 2,
  TRIMONTHLY: 3,
  SEMIANNUALLY: 6,
  ANNUALLY: 12,
};

const CANONICAL: Record<FrequencyInput, Frequency> = {
  WEEKLY: 'WEEKLY',
  MONTHLY: 'MONTHLY',
  BIMONTHLY: 'BIMONTHLY',
  TRIMONTHLY: 'TRIMONTHLY',
  SEMIANNUALLY: 'SEMIANNUALLY',
  ANNUALLY: 'ANNUALLY',
  SEMIANNUALY: 'SEMIANNUALLY',
  ANNUALY: 'ANNUALLY',
  QUARTERLY: 'TRIMONTHLY',
};

export function normalizeFrequency(input: FrequencyInput): Frequency {
  return CANONICAL[input];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

// Day `day` of the month (clamped to its last day) at 00:00 UTC.
function onDay(year: number, month: number, day: number): Date {
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return new Date(Date.UTC(y, m, Math.min(day, daysInMonth(y, m))));
}

// The first generation: a day of the month (1-31) is its next occurrence from today (today
// included, then generated at once); a date-time is that moment (now when it is past).
export function firstChargeAt(now: Date, dayGenerateCharge: number | string): { at: Date; day: number } {
  if (typeof dayGenerateCharge === 'string') {
    const at = new Date(Math.max(Date.parse(dayGenerateCharge), now.getTime()));
    return { at, day: at.getUTCDate() };
  }
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let at = onDay(now.getUTCFullYear(), now.getUTCMonth(), dayGenerateCharge);
  if (at.getTime() < today) at = onDay(now.getUTCFullYear(), now.getUTCMonth() + 1, dayGenerateCharge);
  return { at, day: dayGenerateCharge };
}

// The generation after `previous`: 7 days later (WEEKLY), or 1, 2, 3, 6 or 12 months later on the
// subscription's day of the month (clamped to shorter months), at the same time of day.
export function nextChargeAt(previous: Date, frequency: Frequency, day: number): Date {
  if (frequency === 'WEEKLY') return new Date(previous.getTime() + 7 * 86_400_000);
  const date = onDay(previous.getUTCFullYear(), previous.getUTCMonth() + MONTHS[frequency], day);
  const timeOfDay =
    previous.getTime() - Date.UTC(previous.getUTCFullYear(), previous.getUTCMonth(), previous.getUTCDate());
  return new Date(date.getTime() + timeOfDay);
}

// The dates (UTC calendar days) of the first and, with a number of installments, the last one.
export function scheduleDates(
  first: Date,
  frequency: Frequency,
  day: number,
  installments: number | undefined,
): { first: string; last?: string } {
  let last = first;
  for (let n = 1; installments !== undefined && n < installments; n++) last = nextChargeAt(last, frequency, day);
  const date = (d: Date) => d.toISOString().slice(0, 10);
  return { first: date(first), ...(installments !== undefined ? { last: date(last) } : {}) };
}
