// Identifiers of the Pix arrangement (txid, EndToEndId, rtrId, EVP keys, idRec) and of this service.

import { randomBytes, randomUUID } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Largest multiple of 62 that fits in a byte: bytes at or above it are discarded to avoid bias.
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHANUMERIC.length);
// 8 digits, or digits and capital letters: the alphanumeric ISPB of the standard's 2.9.0.
const ISPB = /^[0-9A-Z]{8}$/;
const PUBLIC_ID_PREFIX = /^[a-z][a-z0-9]{0,15}$/;
const PUBLIC_ID_RANDOM_LENGTH = 24;

// Returns n cryptographically random characters from [A-Za-z0-9], without modulo bias.
export function randomAlphanumeric(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`length must be a non-negative integer, got ${n}`);
  let out = '';
  while (out.length < n) {
    const byte = nextRandomByte();
    if (byte < UNBIASED_BYTE_LIMIT) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  }
  return out;
}

// Bytes of the CSPRNG drawn 4 KiB at a time, as Node's randomUUID does: one call into it per
// hundred or so ids instead of one per id (a charge creation makes three). Each byte is used
// once.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

// Formats the UTC yyyyMMddHHmm of a date (or its first `length` characters).
function utcTimestamp(at: Date, length: 8 | 12): string {
  if (Number.isNaN(at.getTime())) throw new RangeError('date is invalid');
  return at.toISOString().replace(/[-:T]/g, '').slice(0, length);
}

function assertIspb(ispb: string): void {
  if (!ISPB.test(ispb)) throw new RangeError(`ISPB must be 8 digits or capital letters, got ${JSON.stringify(ispb)}`);
}

// Creates a txid for a charge: 32 random alphanumerics (the standard allows 26 to 35).
export function newTxid(): string {
  return randomAlphanumeric(32);
}

// Tells whether s is a txid of an immediate or due-date charge (26 to 35 alphanumerics).
export function isValidTxid(s: string): boolean {
  return /^[a-zA-Z0-9]{26,35}$/.test(s);
}

function pixTransactionId(prefix: 'E' | 'D', ispb: string, at: Date): string {
  assertIspb(ispb);
  return prefix + ispb + utcTimestamp(at, 12) + randomAlphanumeric(11);
}

// Creates the EndToEndId of a Pix payment: "E" + ISPB + UTC yyyyMMddHHmm + 11 alphanumerics (32 chars).
export function newEndToEndId(ispb: string, at: Date): string {
  return pixTransactionId('E', ispb, at);
}

// Creates the rtrId of a Pix return (devolução): same shape as an EndToEndId but starting with "D".
export function newReturnId(ispb: string, at: Date): string {
  return pixTransactionId('D', ispb, at);
}

// Tells whether s has the shape of an EndToEndId ("E...") or rtrId ("D..."): 32 alphanumerics.
export function isValidEndToEndId(s: string): boolean {
  return /^[ED][a-zA-Z0-9]{31}$/.test(s);
}

// Creates a random (EVP) Pix key: a lowercase UUID v4.
export function newEvpKey(): string {
  return randomUUID();
}

// Creates the idRec of a Pix Automático recurrence: "R" + R|N + the agent's ISPB (or the first 8
// characters of its CNPJ; digits or capital letters) + UTC yyyyMMdd + 11 alphanumerics (29 chars).
export function newIdRec(ispbOrCnpj8: string, at: Date, allowsRetry: boolean): string {
  assertIspb(ispbOrCnpj8);
  return 'R' + (allowsRetry ? 'R' : 'N') + ispbOrCnpj8 + utcTimestamp(at, 8) + randomAlphanumeric(11);
}

// Tells whether s has the shape of an idRec (29 characters: RR or RN, the agent, the date, 11
// alphanumerics).
export function isValidIdRec(s: string): boolean {
  return /^R[RN][0-9A-Z]{8}\d{8}[a-zA-Z0-9]{11}$/.test(s);
}

// Creates a service id such as "ch_" + 24 alphanumerics from a lowercase prefix like "ch".
export function newPublicId(prefix: string): string {
  if (!PUBLIC_ID_PREFIX.test(prefix)) {
    throw new RangeError(
      `public id prefix must be lowercase letters/digits starting with a letter, got ${JSON.stringify(prefix)}`,
    );
  }
  return `${prefix}_${randomAlphanumeric(PUBLIC_ID_RANDOM_LENGTH)}`;
}

// Tells whether s is a service id made by newPublicId with this prefix.
export function isValidPublicId(s: string, prefix: string): boolean {
  return (
    s.length === prefix.length + 1 + PUBLIC_ID_RANDOM_LENGTH &&
    s.startsWith(`${prefix}_`) &&
    /^[a-zA-Z0-9]+$/.test(s.slice(prefix.length + 1))
  );
}

// Creates an unguessable URL-safe token (UUID v4, 122 random bits) for payload location URLs.
export function newAccessToken(): string {
  return randomUUID();
}
