// Money in integer cents: exact parsing and formatting of the Pix API's decimal
// strings, and percentage arithmetic done with BigInt so no float ever touches an amount.

/** The outcome of checking input that came from a user. */
export type Result<T> = { ok: true; value: T } | { ok: false; reason: string };

// Wraps a value as a successful Result.
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

// Wraps a reason as a failed Result.
export function fail<T = never>(reason: string): Result<T> {
  return { ok: false, reason };
}

/** An integer number of cents of BRL (may be negative when it is a delta). */
export type Cents = number & { readonly __brand: 'Cents' };

const DECIMAL_AMOUNT = /^\d{1,10}\.\d{2}$/;
const DECIMAL_NUMBER = /^(\d+)(?:\.(\d+))?$/;

// Brands an integer as Cents; throws if it is not a safe integer.
export function cents(n: number): Cents {
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`cents must be a safe integer, got ${n}`);
  }
  return n as Cents;
}

// Parses the Pix API amount format ("123.45": 1 to 10 integer digits, exactly 2 decimals) into cents.
export function parseDecimalAmount(s: string): Result<Cents> {
  if (typeof s !== 'string' || !DECIMAL_AMOUNT.test(s)) {
    return fail('amount must be a decimal string with 1 to 10 integer digits and exactly 2 decimals, like "123.45"');
  }
  const [whole, fraction] = s.split('.') as [string, string];
  return ok(cents(Number(whole) * 100 + Number(fraction)));
}

// Formats cents as the Pix API decimal string (12345 -> "123.45", 5 -> "0.05").
export function formatDecimalAmount(c: Cents): string {
  cents(c);
  const sign = c < 0 ? '-' : '';
  const abs = Math.abs(c);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${sign}${whole}.${fraction}`;
}

/** A non-negative decimal number as an exact fraction numerator / 10^scale. */
type ExactDecimal = { numerator: bigint; scale: bigint };

function toExactDecimal(value: string | number, what: string): ExactDecimal {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${what} must be finite, got ${value}`);
    text = String(value);
    if (/e/i.test(text)) text = value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
  } else {
    text = value;
  }
  const match = DECIMAL_NUMBER.exec(text);
  if (!match) throw new RangeError(`${what} must be a non-negative decimal like "2.50", got ${JSON.stringify(value)}`);
  const fraction = match[2] ?? '';
  return { numerator: BigInt(match[1]! + fraction), scale: BigInt(fraction.length) };
}

// Divides with rounding half away from zero (half up for positive amounts).
function divideRoundHalfUp(dividend: bigint, divisor: bigint): bigint {
  const negative = dividend < 0n;
  const abs = negative ? -dividend : dividend;
  let quotient = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) quotient += 1n;
  return negative ? -quotient : quotient;
}

function toCents(value: bigint): Cents {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`result ${value} does not fit in a safe integer`);
  }
  return cents(Number(value));
}

// Computes percent% of an amount ("2.50" means 2.50%), rounded half up to the cent.
export function percentOf(amount: Cents, percent: string | number): Cents {
  cents(amount);
  const { numerator, scale } = toExactDecimal(percent, 'percent');
  return toCents(divideRoundHalfUp(BigInt(amount) * numerator, 100n * 10n ** scale));
}

// Computes basis points (1 bp = 0.01%) of an amount, rounded half up to the cent.
export function applyBasisPoints(amount: Cents, basisPoints: number): Cents {
  cents(amount);
  if (!Number.isSafeInteger(basisPoints)) {
    throw new RangeError(`basis points must be a safe integer, got ${basisPoints}`);
  }
  return toCents(divideRoundHalfUp(BigInt(amount) * BigInt(basisPoints), 10000n));
}

// Adds amounts in cents; throws if the total leaves the safe integer range.
export function sumCents(...amounts: Cents[]): Cents {
  let total = 0n;
  for (const amount of amounts) total += BigInt(cents(amount));
  return toCents(total);
}
