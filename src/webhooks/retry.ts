// The retry schedule of webhook deliveries: the delays before each retry, with jitter.
// A retry is due on the server clock (the sandbox can move it, src/lib/clock.ts). Each retry
// is scheduled from the clock at the attempt before it, so moving the clock days ahead makes
// each pending delivery due once, not its whole retry budget at once.

// Exponential (doubling from one minute) up to 12 hours: 11 retries over about 28 hours.
export const DEFAULT_RETRY_SCHEDULE = '1m,2m,4m,8m,16m,32m,1h,2h,4h,8h,12h';
export const DEFAULT_TIMEOUT_MS = 10_000;
// Each delay is stretched by a random 0 to 20 % so that receivers coming back up are not
// hit by every retry at once. Jitter only lengthens: the schedule's total is a minimum.
export const JITTER = 0.2;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

// "1m,2m,30s,1500ms,0" -> delays in milliseconds (no unit: milliseconds). Throws on bad input.
export function parseRetrySchedule(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  return trimmed.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    if (!m)
      throw new Error(
        `PIXGATE_WEBHOOK_RETRY_SCHEDULE: "${part}" is not a delay (use e.g. 30s, 5m, 2h or milliseconds)`,
      );
    return Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms']!);
  });
}

export function parseTimeoutMs(text: string | undefined): number {
  if (text === undefined || text === '') return DEFAULT_TIMEOUT_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000)
    throw new Error(`PIXGATE_WEBHOOK_TIMEOUT_MS must be from 1 to 60000, got ${text}`);
  return ms;
}

// The delay before the next automatic attempt after `attemptsMade` failed ones, or undefined
// when the schedule is exhausted (the delivery then fails for good).
export function nextDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  random: () => number = Math.random,
): number | undefined {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + JITTER * random()));
}

export function totalScheduleMs(schedule: readonly number[]): number {
  return schedule.reduce((a, b) => a + b, 0);
}
