// Local time of the Pix arrangement (Brasília, America/Sao_Paulo) for instants of the server
// clock: the day and night periods of the limits and the calendar day and month of usage.
const TIME_ZONE = 'America/Sao_Paulo';
export const NIGHT_START_HOUR = 20;
export const NIGHT_END_HOUR = 6;
const HOUR_MS = 3_600_000;

const format = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(at: Date): LocalParts {
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

// Local time minus UTC at an instant, in ms (-3 h since Brazil dropped daylight saving).
function offsetMs(at: Date): number {
  const p = localParts(at);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

function instantOf(year: number, month: number, day: number, near: Date): Date {
  return new Date(Date.UTC(year, month - 1, day) - offsetMs(near));
}

// 'YYYY-MM-DD' of the local calendar day.
export function localDate(at: Date): string {
  const p = localParts(at);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function isNighttime(at: Date): boolean {
  const { hour } = localParts(at);
  return hour >= NIGHT_START_HOUR || hour < NIGHT_END_HOUR;
}

// The periods of the local day of `at`: [start, nightEnds) and [nightStarts, end) are night.
export function dayWindows(at: Date) {
  const p = localParts(at);
  const start = instantOf(p.year, p.month, p.day, at);
  return {
    start,
    nightEnds: new Date(start.getTime() + NIGHT_END_HOUR * HOUR_MS),
    nightStarts: new Date(start.getTime() + NIGHT_START_HOUR * HOUR_MS),
    end: new Date(start.getTime() + 24 * HOUR_MS),
  };
}

export function monthWindow(at: Date) {
  const p = localParts(at);
  const next = p.month === 12 ? { year: p.year + 1, month: 1 } : { year: p.year, month: p.month + 1 };
  return { start: instantOf(p.year, p.month, 1, at), end: instantOf(next.year, next.month, 1, at) };
}
