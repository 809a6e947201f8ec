// Signing material and compact JWS helpers for the payload locations of dynamic Pix QR codes.
// Pure: the caller stores the material (PEM strings and the public JWK) in its database.
//
// Algorithm: PS256 (RSASSA-PSS, SHA-256, 2048-bit RSA). The BCB "Manual de Segurança do Pix"
// (section on dynamic QR codes / JWS definitions) lists RSASSA-PSS and ECDSA algorithms (PS256,
// PS384, PS512, ES256, ...) for signing the payload and does not list RS256, so PS256 is the default.
// RS256 stays available through the optional `alg` argument for interoperability tests.
import { constants, createHash, randomBytes, type SignKeyObjectInput, webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import {
  type CompactJWSHeaderParameters,
  type JSONWebKeySet,
  type JWK,
  calculateJwkThumbprint,
  compactVerify,
  createLocalJWKSet,
  exportJWK,
} from 'jose';
import { type Result, fail, ok } from './money';
import { privateKeyOf, signSha256 } from './rsa-sign';

export type SigningAlg = 'PS256' | 'RS256';

export interface PublicSigningJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: SigningAlg;
  use: 'sig';
  x5t: string;
  x5c: string[];
}

// A public RSA key as signing_keys.public_jwk stores it: the payload-JWS key (PublicSigningJwk)
// carries its certificate too, the webhook key (src/webhooks/signature.ts) does not.
export type StoredPublicJwk = Omit<PublicSigningJwk, 'alg' | 'x5t' | 'x5c'> &
  Partial<Pick<PublicSigningJwk, 'x5t' | 'x5c'>> & { alg: string };

export interface SigningMaterial {
  kid: string;
  alg: SigningAlg;
  privateKeyPkcs8Pem: string;
  publicJwk: PublicSigningJwk;
  certificatePem: string;
  /** base64url SHA-1 of the certificate DER (RFC 7515 x5t) */
  x5t: string;
}

/** Algorithms accepted when verifying someone else's payload JWS (asymmetric only). */
const VERIFY_ALGORITHMS = ['PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512'];
const YEAR_MS = 365 * 86_400_000;
const subtle = webcrypto.subtle;

let x509Module: Promise<typeof X509> | undefined;

// Loads @peculiar/x509 once; its dependency tsyringe needs the Reflect metadata polyfill first.
function loadX509(): Promise<typeof X509> {
  if (!x509Module) x509Module = import('reflect-metadata').then(() => import('@peculiar/x509'));
  return x509Module;
}

// PEM armour for DER bytes, 64 characters per line.
function toPem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

// Creates a fresh RSA 2048 key pair, a self-signed certificate valid 1 year from `now`, and its JWK.
export async function createSigningMaterial(
  commonName: string,
  now: Date,
  alg: SigningAlg = 'PS256',
): Promise<SigningMaterial> {
  const keyAlgorithm = alg === 'PS256' ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5';
  const keys = (await subtle.generateKey(
    { name: keyAlgorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;

  const x509 = await loadX509();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01' + randomBytes(15).toString('hex'),
      name: [{ CN: [commonName] }],
      notBefore: now,
      notAfter: new Date(now.getTime() + YEAR_MS),
      keys,
      signingAlgorithm:
        alg === 'PS256' ? ({ name: 'RSA-PSS', saltLength: 32 } as webcrypto.Algorithm) : { name: keyAlgorithm },
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ],
    },
    webcrypto,
  );
  const der = Buffer.from(cert.rawData);
  const x5t = createHash('sha1').update(der).digest('base64url');

  const jwk = await exportJWK(keys.publicKey);
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('unexpected public key export');
  const thumbprint = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e }, 'sha256');
  const kid = thumbprint.slice(0, 22); // 132 bits of the RFC 7638 SHA-256 thumbprint

  const pkcs8 = await subtle.exportKey('pkcs8', keys.privateKey);
  return {
    kid,
    alg,
    privateKeyPkcs8Pem: toPem('PRIVATE KEY', pkcs8),
    publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg, use: 'sig', x5t, x5c: [der.toString('base64')] },
    certificatePem: cert.toString('pem'),
    x5t,
  };
}

// The JWKS document (`{ keys: [...] }`) publishing the public keys of the given materials.
export function jwksOf(materials: SigningMaterial[]): { keys: PublicSigningJwk[] } {
  return { keys: materials.map((m) => ({ ...m.publicJwk, x5c: [...m.publicJwk.x5c] })) };
}

// What signing with one key needs, made once per key and location URL: the signature options
// (the parsed key and its padding) and the protected header, already base64url-encoded (it is
// the same for every payload of that key).
interface Signer {
  options: SignKeyObjectInput;
  header: string;
}

const MAX_SIGNERS = 16;
const signers = new Map<string, Signer>();

function signerOf(material: SigningMaterial, jku: string): Signer {
  const id = `${material.kid}\n${jku}\n${material.privateKeyPkcs8Pem}`;
  let signer = signers.get(id);
  if (!signer) {
    const key = privateKeyOf(material.privateKeyPkcs8Pem);
    // PS256: RSASSA-PSS with SHA-256 and a salt as long as the hash (RFC 7518 section 3.5).
    const options: SignKeyObjectInput =
      material.alg === 'PS256'
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
        : { key, padding: constants.RSA_PKCS1_PADDING };
    const header = { alg: material.alg, kid: material.kid, jku, x5t: material.x5t };
    signer = { options, header: Buffer.from(JSON.stringify(header)).toString('base64url') };
    if (signers.size >= MAX_SIGNERS) signers.clear();
    signers.set(id, signer);
  }
  return signer;
}

// Signs a JSON payload as a compact JWS with protected header { alg, kid, jku, x5t }, off the
// event loop (src/lib/rsa-sign.ts).
export async function signCompactJws(payload: object, material: SigningMaterial, jku: string): Promise<string> {
  const signer = signerOf(material, jku);
  const input = `${signer.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const signature = await signSha256(input, signer.options);
  return `${input}.${signature.toString('base64url')}`;
}

// Verifies a compact JWS against a JWKS and returns its JSON payload and protected header.
export async function verifyCompactJws(
  jws: string,
  jwks: { keys: object[] },
): Promise<Result<{ payload: unknown; header: CompactJWSHeaderParameters }>> {
  let verified: Awaited<ReturnType<typeof compactVerify>>;
  try {
    const keySet = createLocalJWKSet(jwks as JSONWebKeySet);
    verified = await compactVerify(jws, keySet, { algorithms: VERIFY_ALGORITHMS });
  } catch (err) {
    return fail(describeJoseError(err));
  }
  const header = verified.protectedHeader;
  if (header.x5t !== undefined) {
    const key = (jwks.keys as JWK[]).find((k) => k.kid === header.kid && k.x5t !== undefined);
    if (key && key.x5t !== header.x5t) return fail('the x5t header does not match the key in the JWKS');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(verified.payload));
  } catch {
    return fail('the JWS payload is not UTF-8 JSON');
  }
  return ok({ payload, header });
}

// A short human reason for a jose verification error.
function describeJoseError(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'signature verification failed';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'no key in the JWKS matches the JWS header';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'several keys in the JWKS match the JWS header';
    case 'ERR_JWS_INVALID':
      return 'malformed JWS';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'JWS algorithm not allowed';
    case 'ERR_JWKS_INVALID':
      return 'invalid JWKS';
    default:
      return `invalid JWS: ${err instanceof Error ? err.message : String(err)}`;
  }
}
