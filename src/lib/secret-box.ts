// Secrets the server must read back (signing keys, webhook secrets, a kept answer that
// carries a client secret) are stored sealed: AES-256-GCM under a 256-bit key, with a
// random 96-bit nonce per value and the place the value belongs to as associated data (a
// sealed value copied into another column does not open there). The stored form says what
// it is and which key sealed it:
//
//   sealed:v1:<key id>:<base64url(nonce | ciphertext | tag)>
//
// The key id is a hash of the key (8 hex digits), so a value sealed under another key is
// named as such instead of failing as corrupt.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealedWithAnotherKey extends Error {
  constructor(
    readonly sealedKeyId: string,
    readonly keyId: string,
  ) {
    super(`a value was sealed under another key (key id ${sealedKeyId}; this key's id is ${keyId})`);
  }
}

export class SecretBox {
  readonly keyId: string;
  private readonly key: Buffer;

  // `previous`: the box of the key this one replaces; what it sealed still opens (and
  // resealed() moves it to this key).
  constructor(
    key: Uint8Array,
    readonly previous?: SecretBox,
  ) {
    if (key.length !== 32) throw new Error('a SecretBox key has 32 bytes');
    this.key = Buffer.from(key);
    this.keyId = createHash('sha256').update('pixgate key id\n').update(this.key).digest('hex').slice(0, 8);
  }

  // A box whose key is derived (HKDF-SHA256) from input key material and what it is for.
  static derived(material: string | Uint8Array, salt: string, purpose: string, previous?: SecretBox): SecretBox {
    return new SecretBox(Buffer.from(hkdfSync('sha256', material, salt, purpose, 32)), previous);
  }

  // The stored form of a value sealed under this key, which a value stored under it starts with.
  get sealedPrefix(): string {
    return `${PREFIX}${this.keyId}:`;
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plaintext: string | Uint8Array, place: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(place));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return `${PREFIX}${this.keyId}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  // The bytes of a sealed value; throws when it was sealed under another key, for another
  // place, or was altered.
  openBytes(sealed: string, place: string): Buffer {
    if (!SecretBox.isSealed(sealed)) throw new Error('not a sealed value');
    const rest = sealed.slice(PREFIX.length);
    const colon = rest.indexOf(':');
    const keyId = rest.slice(0, colon);
    if (keyId !== this.keyId) {
      if (this.previous?.keyId === keyId) return this.previous.openBytes(sealed, place);
      throw new SealedWithAnotherKey(keyId, this.keyId);
    }
    const raw = Buffer.from(rest.slice(colon + 1), 'base64url');
    if (raw.length < NONCE_BYTES + TAG_BYTES) throw new Error('a sealed value is too short');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(place));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]);
  }

  open(sealed: string, place: string): string {
    return this.openBytes(sealed, place).toString('utf8');
  }
}

// A stored value as it must be stored under `box`: a value kept in clear (written before
// secrets were sealed) sealed, one sealed under the previous key sealed again, one already
// sealed under this key as it is. A value sealed under a key this box does not know throws
// SealedWithAnotherKey.
export function resealed(box: SecretBox, stored: string, place: string): string {
  if (stored.startsWith(box.sealedPrefix)) return stored;
  return box.seal(SecretBox.isSealed(stored) ? box.openBytes(stored, place) : stored, place);
}

// A stored value in clear: opened when sealed, as it is when it was kept in clear before
// secrets were sealed (the start-up pass seals those).
export function openStored(box: SecretBox, stored: string, place: string): string {
  return SecretBox.isSealed(stored) ? box.open(stored, place) : stored;
}
