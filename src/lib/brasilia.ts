// Civil time of the Pix arrangement: Brasília (America/Sao_Paulo). The standard's dates (a due
// date, a last payable day) are days of this calendar, and the instants people read (pages,
// e-mails) are shown on its clocks. Computed with the time zone database through Intl, not with
// a fixed -03:00: Brazil has kept no daylight saving time since Decree 9.772 of 2019, but a
// rule that changes again is then a tzdata update, not a code change.
export const BRASILIA_TIME_ZONE = 'America/Sao_Paulo';

const DAY_MS = 86_400_000;

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: BRASILIA_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export interface BrasiliaParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// The wall clock of Brasília at an instant.
export function brasiliaParts(at: Date): BrasiliaParts {
  const parts = Object.fromEntries(PARTS.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

// Brasília's time minus UTC at an instant, in ms (-3 h today).
export function brasiliaOffsetMs(at: Date): number {
  const p = brasiliaParts(at);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// The civil date ('YYYY-MM-DD') in Brasília of an instant: "today" for the standard's dates.
export function brasiliaDate(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('date is invalid');
  const p = brasiliaParts(at);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

// The first instant of a civil date ('YYYY-MM-DD') in Brasília. The offset is read near the
// instant twice (the first guess may sit across a change of offset); of the guesses on that
// date the earliest wins, and a midnight that a change skipped (the daylight saving starts of
// old) gives the day's first existing instant.
export function startOfBrasiliaDay(date: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00.000Z`);
  if (Number.isNaN(midnightUtc)) throw new RangeError(`not a date: ${JSON.stringify(date)}`);
  const first = midnightUtc - brasiliaOffsetMs(new Date(midnightUtc));
  const second = midnightUtc - brasiliaOffsetMs(new Date(first));
  const onDate = [first, second].filter((t) => brasiliaDate(new Date(t)) === date);
  return new Date(onDate.length ? Math.min(...onDate) : Math.max(first, second));
}

// The first instant of the day after a civil date in Brasília: the exclusive end of that day,
// whose last instant is 23:59:59.999 Brasília time.
export function endOfBrasiliaDay(date: string): Date {
  const next = new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
  return startOfBrasiliaDay(next);
}

// An instant as a Brazilian reads it on Brasília's clock: "15/03/2026 23:30:00".
export function formatBrasiliaDateTime(at: Date): string {
  const p = brasiliaParts(at);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

// An instant as RFC 3339 on Brasília's clock, with its offset: "2026-12-15T23:59:59.999-03:00"
// (the civil date reads as Brasília's, and it is the same instant as its UTC form).
export function brasiliaDateTime(at: Date): string {
  const offset = brasiliaOffsetMs(at);
  const wall = new Date(at.getTime() + offset).toISOString().slice(0, 23);
  const minutes = Math.abs(offset) / 60_000;
  return `${wall}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
