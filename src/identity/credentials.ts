// Application credentials. appID (sent in Authorization) is base64("clientId:clientSecret"),
// the form existing clients of this API use; only a SHA-256 of the secret is stored (the
// secret is 256 random bits, so a slow hash would add nothing).
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export interface NewCredentials {
  clientId: string;
  clientSecret: string;
  clientSecretHash: string;
  appID: string;
}

export function newCredentials(): NewCredentials {
  const clientId = `Client_Id_${randomUUID()}`;
  const clientSecret = `Client_Secret_${randomBytes(32).toString('base64url')}`;
  return {
    clientId,
    clientSecret,
    clientSecretHash: hashSecret(clientSecret),
    appID: encodeAppId(clientId, clientSecret),
  };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export function encodeAppId(clientId: string, clientSecret: string): string {
  return Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
}

// Reads an appID (optionally after "Bearer "/"Basic "); undefined when it is not one.
export function decodeAppId(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!header || header.length > 1024) return undefined;
  const token = header.replace(/^(Bearer|Basic)\s+/i, '').trim();
  if (!/^[A-Za-z0-9+/=_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64');
  if (!spellsCanonically(token, bytes)) return undefined;
  const decoded = bytes.toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
}

// Node's base64 decoder skips what it cannot use (anything after padding, stray bits): only
// the canonical spelling of the bytes (padding optional, either alphabet) is an appID, so one
// credential has one header, not many.
function spellsCanonically(token: string, bytes: Buffer): boolean {
  const standard = token.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  return bytes.toString('base64').replace(/=+$/, '') === standard;
}
