// Secrets sealed at rest (AES-256-GCM) with a key from the environment: what a table must keep
// but nobody may read from it (a certificate authority's private key). A sealed value names
// the key that sealed it by a short fingerprint, so a server started with another key says so
// instead of failing on a bad tag.
//
// Form: `sealed:v1:<key fingerprint>:<iv>:<ciphertext>:<tag>` (base64url parts; the
// fingerprint is the first 8 bytes, hex, of SHA-256 over "pixgate-sealed-key" and the key).
// The associated data binds a value to what it is (e.g. `tls-authority:sandbox`): a sealed
// value copied into another row does not open there.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export interface SealingKey {
  // 32 bytes of key material.
  readonly key: Buffer;
  // Names the key in sealed values (not secret: a hash of it).
  readonly fingerprint: string;
  // Where it came from, for error messages (never the key itself).
  readonly source: string;
}

// A key of 32 bytes written as 64 hex digits or as base64 (43 or 44 characters), or any
// passphrase of at least 32 characters (stretched with HKDF-SHA-256).
export function sealingKeyOf(value: string, source: string): SealingKey {
  const text = value.trim();
  let key: Buffer;
  if (/^[0-9a-fA-F]{64}$/.test(text)) key = Buffer.from(text, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) key = Buffer.from(text, 'base64');
  else if (text.length >= 32) key = Buffer.from(hkdfSync('sha256', text, 'pixgate', 'sealing key', KEY_BYTES));
  else
    throw new Error(`${source} must be 32 bytes (64 hex digits or base64) or a passphrase of at least 32 characters`);
  if (key.length !== KEY_BYTES) throw new Error(`${source} must decode to 32 bytes`);
  return { key, fingerprint: fingerprintOf(key), source };
}

function fingerprintOf(key: Buffer): string {
  return createHash('sha256').update('pixgate-sealed-key').update(key).digest('hex').slice(0, 16);
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

// Seals `plaintext` for the purpose named by `context` (authenticated, not stored).
export function seal(plaintext: string, key: SealingKey, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return `${PREFIX}${key.fingerprint}:${parts.join(':')}`;
}

export class SealedValueError extends Error {}

// Opens a value sealed with `key` for `context`; throws SealedValueError saying why not.
export function unseal(sealed: string, key: SealingKey, context: string): string {
  if (!isSealed(sealed)) throw new SealedValueError('not a sealed value');
  const [fingerprint, iv, body, tag] = sealed.slice(PREFIX.length).split(':');
  if (!fingerprint || iv === undefined || body === undefined || tag === undefined)
    throw new SealedValueError('malformed sealed value');
  if (fingerprint !== key.fingerprint)
    throw new SealedValueError(
      `it was sealed with another key (fingerprint ${fingerprint}, ${key.source} has ${key.fingerprint})`,
    );
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedValueError('it does not open with this key (altered, or sealed for something else)');
  }
}
