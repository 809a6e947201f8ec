// Brazilian national business-day calendar over `YYYY-MM-DD` calendar dates.
// All arithmetic is UTC Date arithmetic on the date strings (no time zones involved).
// Holidays: the fixed national holidays plus the Easter-based bank holidays
// (Carnival Monday and Tuesday, Good Friday, Corpus Christi), which is the calendar
// banks and the Pix due-date rules follow. Regional (state/city) holidays are out of scope.

const DAY_MS = 86_400_000;
// Dates are written YYYY-MM-DD, so the calendar ends on 9999-12-31.
const LAST_DATE_MS = Date.UTC(9999, 11, 31);
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

// Parse a `YYYY-MM-DD` string to UTC epoch milliseconds; throws on a malformed or impossible date.
function toUtcMs(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new Error(`invalid calendar date: ${JSON.stringify(date)}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) {
    throw new Error(`invalid calendar date: ${JSON.stringify(date)}`);
  }
  return ms;
}

// Format UTC epoch milliseconds as `YYYY-MM-DD`.
function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

// True when the string is a real calendar date in `YYYY-MM-DD` form (for validating user input).
export function isValidDate(date: string): boolean {
  try {
    toUtcMs(date);
    return true;
  } catch {
    return false;
  }
}

// Today's calendar date in UTC as `YYYY-MM-DD`.
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

// Easter Sunday of a Gregorian year (anonymous Gregorian / Meeus-Jones-Butcher algorithm).
export function easterSunday(year: number): string {
  if (!Number.isInteger(year) || year < 1583 || year > 9999) throw new Error(`unsupported year: ${year}`);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return fromUtcMs(Date.UTC(year, month - 1, day));
}

const holidayCache = new Map<number, ReadonlyMap<string, string>>();

// The national holidays of a year as a map from date to holiday name, in date order.
export function nationalHolidays(year: number): ReadonlyMap<string, string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const easter = toUtcMs(easterSunday(year));
  const y = String(year).padStart(4, '0');
  const list: Array<[string, string]> = [
    [`${y}-01-01`, 'Confraternização Universal'],
    [fromUtcMs(easter - 48 * DAY_MS), 'Carnaval (segunda-feira)'],
    [fromUtcMs(easter - 47 * DAY_MS), 'Carnaval (terça-feira)'],
    [fromUtcMs(easter - 2 * DAY_MS), 'Sexta-feira Santa'],
    [`${y}-04-21`, 'Tiradentes'],
    [`${y}-05-01`, 'Dia do Trabalho'],
    [fromUtcMs(easter + 60 * DAY_MS), 'Corpus Christi'],
    [`${y}-09-07`, 'Independência do Brasil'],
    [`${y}-10-12`, 'Nossa Senhora Aparecida'],
    [`${y}-11-02`, 'Finados'],
    [`${y}-11-15`, 'Proclamação da República'],
    [`${y}-12-25`, 'Natal'],
  ];
  // Dia Nacional de Zumbi e da Consciência Negra: national holiday since 2024 (Lei 14.759/2023).
  if (year >= 2024) list.push([`${y}-11-20`, 'Dia Nacional de Zumbi e da Consciência Negra']);
  list.sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0));
  const map = new Map(list);
  holidayCache.set(year, map);
  return map;
}

// The holiday name when the date is a national holiday, else null.
export function holidayName(date: string): string | null {
  toUtcMs(date);
  return nationalHolidays(Number(date.slice(0, 4))).get(date) ?? null;
}

// True when the date is a weekday that is not a national holiday.
export function isBusinessDay(date: string): boolean {
  const weekday = new Date(toUtcMs(date)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return holidayName(date) === null;
}

// The date itself when it is a business day, otherwise the next business day after it.
export function nextBusinessDay(date: string): string {
  let ms = toUtcMs(date);
  while (!isBusinessDay(fromUtcMs(ms))) ms += DAY_MS;
  return fromUtcMs(ms);
}

// The date n calendar days after (n < 0: before) the given date.
export function addCalendarDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new Error(`day count must be an integer: ${n}`);
  return fromUtcMs(toUtcMs(date) + n * DAY_MS);
}

// The n-th business day after the date (n < 0: before it); n = 0 returns the date unchanged.
export function addBusinessDays(date: string, n: number): string {
  if (!Number.isInteger(n)) throw new Error(`day count must be an integer: ${n}`);
  const step = n < 0 ? -DAY_MS : DAY_MS;
  let ms = toUtcMs(date);
  let left = Math.abs(n);
  while (left > 0) {
    ms += step;
    if (isBusinessDay(fromUtcMs(ms))) left--;
  }
  return fromUtcMs(ms);
}

// Number of business days d with from < d <= to (negated count of to < d <= from when to < from).
export function businessDaysBetween(from: string, to: string): number {
  const a = toUtcMs(from);
  const b = toUtcMs(to);
  if (b < a) return -businessDaysBetween(to, from);
  let count = 0;
  for (let ms = a + DAY_MS; ms <= b; ms += DAY_MS) {
    if (isBusinessDay(fromUtcMs(ms))) count++;
  }
  return count;
}

// Number of calendar days from `from` to `to` (negative when `to` is earlier).
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

// Whether `days` calendar days after `date` (a date or date-time) fall past 9999-12-31, the
// last date that can be written: such a due date or validity cannot be stored nor computed.
export function endsAfterLastDate(date: string, days: number): boolean {
  return Date.parse(date) + days * DAY_MS > LAST_DATE_MS;
}
