// Local time of the Pix arrangement (Brasília, America/Sao_Paulo) for instants of the server
// clock: the day and night periods of the limits and the calendar day and month of usage.
import { brasiliaDate, brasiliaOffsetMs, brasiliaParts, type BrasiliaParts } from '../lib/brasilia';

export const NIGHT_START_HOUR = 20;
export const NIGHT_END_HOUR = 6;
const HOUR_MS = 3_600_000;

export type LocalParts = BrasiliaParts;
export const localParts = brasiliaParts;
const offsetMs = brasiliaOffsetMs;

function instantOf(year: number, month: number, day: number, near: Date): Date {
  return new Date(Date.UTC(year, month - 1, day) - offsetMs(near));
}

// 'YYYY-MM-DD' of the local calendar day.
export const localDate = brasiliaDate;

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
