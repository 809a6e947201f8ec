// Amounts as a Brazilian reads them (R$ 1.234,56, in both languages: it is Brazilian money)
// and times in Brasília (America/Sao_Paulo), whatever the server's own zone.
import type { Locale } from './i18n';

export const TIME_ZONE = 'America/Sao_Paulo';

const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

// cents -> "R$ 1.234,56" (a no-break space after R$, as Intl writes it)
export function money(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '—';
  return BRL.format(cents / 100);
}

const DATE_TIME: Record<Locale, Intl.DateTimeFormat> = {
  'pt-BR': new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, dateStyle: 'short', timeStyle: 'medium' }),
};
const DAY: Record<Locale, Intl.DateTimeFormat> = {
  'pt-BR': new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit' }),
  en: new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, day: '2-digit', month: 'short' }),
};

// An instant in Brasília time ("25/11/2026, 14:30:05"); '—' when there is none.
export function dateTime(value: string | Date | null | undefined, locale: Locale): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return DATE_TIME[locale].format(date);
}

// A civil date (YYYY-MM-DD, already Brasília's) as the reader writes it.
export function civilDate(value: string | null | undefined, locale: Locale): string {
  if (!value) return '—';
  const [y, m, d] = value.split('-');
  return locale === 'pt-BR' ? `${d}/${m}/${y}` : `${d}/${m}/${y}`;
}

export function dayLabel(day: string, locale: Locale): string {
  return DAY[locale].format(new Date(`${day}T12:00:00-03:00`));
}

// The civil date in Brasília of an instant (YYYY-MM-DD).
export function brasiliaDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(at);
}

// "2026-11-25T14:30" as typed in a datetime-local field, read as Brasília time.
export function fromBrasiliaLocal(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(value)) return undefined;
  const withTime = value.length === 10 ? `${value}T00:00:00` : value.length === 16 ? `${value}:00` : value;
  // Brasília has had no daylight saving time since 2019: always UTC-3.
  const date = new Date(`${withTime}-03:00`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
