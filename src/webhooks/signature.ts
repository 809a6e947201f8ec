// Signatures of webhook deliveries.
// - X-Pixgate-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, the
//   secret being the webhook's own (answered when it was created). Receivers recompute it and
//   refuse a timestamp outside their tolerance window (default here: 5 minutes).
// - x-webhook-signature: base64 RSA-SHA256 (PKCS#1 v1.5) of the raw body, with the server's
//   key published by GET /api/v1/webhook/public-keys (receivers of the public reference).
import {
  createHash,
  createHmac,
  createPublicKey,
  createVerify,
  generateKeyPair,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import { privateKeyOf, signSha256 } from '../lib/rsa-sign';
import type { NewKeyMaterial } from '../signing/signing.service';

export { hmacSignature, SIGNATURE_HEADER } from '../lib/webhook-hmac';
export const RSA_SIGNATURE_HEADER = 'x-webhook-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type Verification = { ok: true } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

// What a receiver does (the same code is in docs/webhooks.md): parse, check the window, then
// compare in constant time with every v1 of the header.
export function verifyHmacSignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): Verification {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const candidates = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!Number.isInteger(t) || candidates.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
  const match = candidates.some((c) => c.length === expected.length && timingSafeEqual(Buffer.from(c), expected));
  return match ? { ok: true } : { ok: false, reason: 'mismatch' };
}

// RSA-SHA256 (PKCS#1 v1.5), base64, off the event loop (src/lib/rsa-sign.ts).
export async function rsaSignature(privateKeyPem: string, body: string): Promise<string> {
  return (await signSha256(body, { key: privateKeyOf(privateKeyPem) })).toString('base64');
}

export function verifyRsaSignature(publicKeyPem: string, body: string, signature: string): boolean {
  return createVerify('RSA-SHA256').update(body).verify(publicKeyPem, signature, 'base64');
}

export function publicPemOf(privateKeyPem: string): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}

// The public reference's key_identifier: hex SHA-256 of the key's DER SubjectPublicKeyInfo.
export function keyIdentifierOf(keyPem: string): string {
  return createHash('sha256')
    .update(createPublicKey(keyPem).export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

// A new RSA 2048 key for x-webhook-signature (stored by SigningKeyService, purpose webhook-rsa).
export async function createWebhookRsaKey(now: Date): Promise<NewKeyMaterial> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const kid = `whk-${now.toISOString().slice(0, 7)}-${randomBytes(4).toString('hex')}`;
  const jwk = publicKey.export({ format: 'jwk' });
  if (!jwk.n || !jwk.e) throw new Error('unexpected public key export');
  return {
    kid,
    algorithm: 'RS256',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' },
    certificate: null,
  };
}
