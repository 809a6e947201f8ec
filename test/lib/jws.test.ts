import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import {
  type SigningMaterial,
  createSigningMaterial,
  jwksOf,
  signCompactJws,
  verifyCompactJws,
} from '../../src/lib/jws';

const NOW = new Date('2026-03-10T12:00:00Z');
const JKU = 'https://pix.pixgate.example/jwks';
const PAYLOAD = { txid: 'abc123', valor: { original: '10.00' }, devedor: { nome: 'José da Silva, São Paulo' } };

// key generation is slow-ish: create the materials once for the whole file
let main: SigningMaterial;
let other: SigningMaterial;
let rs: SigningMaterial;

test.before(async () => {
  [main, other, rs] = await Promise.all([
    createSigningMaterial('pix.pixgate.example', NOW),
    createSigningMaterial('other.example', NOW),
    createSigningMaterial('rs.example', NOW, 'RS256'),
  ]);
});

function b64urlJson(s: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
}

test('material: PS256, kid from the thumbprint, x5t = SHA-1 of the x5c DER', async () => {
  assert.is(main.alg, 'PS256');
  assert.is(main.publicJwk.alg, 'PS256');
  assert.is(main.publicJwk.use, 'sig');
  assert.is(main.publicJwk.kty, 'RSA');
  assert.is(main.publicJwk.kid, main.kid);
  assert.is((main.publicJwk as unknown as Record<string, unknown>)['d'], undefined); // no private part
  const thumbprint = await calculateJwkThumbprint({ kty: 'RSA', n: main.publicJwk.n, e: main.publicJwk.e }, 'sha256');
  assert.is(main.kid, thumbprint.slice(0, 22));
  assert.is.not(main.kid, other.kid);

  assert.is(main.publicJwk.x5c.length, 1);
  const der = Buffer.from(main.publicJwk.x5c[0]!, 'base64');
  assert.ok(/^[A-Za-z0-9+/]+=*$/.test(main.publicJwk.x5c[0]!)); // base64, not base64url
  assert.is(main.x5t, createHash('sha1').update(der).digest('base64url'));
  assert.is(main.publicJwk.x5t, main.x5t);
  assert.is(Buffer.from(main.x5t, 'base64url').length, 20);
});

test('material: certificate is self-signed for the key, valid one year from now', () => {
  const cert = new X509Certificate(main.certificatePem);
  assert.is(cert.subject, 'CN=pix.pixgate.example');
  assert.is(cert.issuer, 'CN=pix.pixgate.example');
  assert.is(new Date(cert.validFrom).toISOString(), '2026-03-10T12:00:00.000Z');
  assert.is(new Date(cert.validTo).toISOString(), '2027-03-10T12:00:00.000Z');
  assert.equal(cert.raw, Buffer.from(main.publicJwk.x5c[0]!, 'base64'));
  // fingerprint (SHA-1, colon hex) is the same hash as x5t
  assert.is(cert.fingerprint.replace(/:/g, '').toLowerCase(), Buffer.from(main.x5t, 'base64url').toString('hex'));
  assert.ok(cert.verify(cert.publicKey));
  const fromJwk = createPublicKey({ key: { kty: 'RSA', n: main.publicJwk.n, e: main.publicJwk.e }, format: 'jwk' });
  assert.ok(cert.publicKey.equals(fromJwk));
  const priv = createPrivateKey(main.privateKeyPkcs8Pem);
  assert.is(priv.asymmetricKeyDetails?.modulusLength, 2048);
  assert.ok(main.privateKeyPkcs8Pem.startsWith('-----BEGIN PRIVATE KEY-----\n'));
});

test('sign: protected header carries alg, kid, jku, x5t (and nothing else)', async () => {
  const jws = await signCompactJws(PAYLOAD, main, JKU);
  const [h, p, s] = jws.split('.');
  assert.ok(s && s.length > 0);
  assert.equal(b64urlJson(h!), { alg: 'PS256', kid: main.kid, jku: JKU, x5t: main.x5t });
  assert.equal(b64urlJson(p!), PAYLOAD);
});

test('verify: the public JWKS verifies and returns payload and header', async () => {
  const jws = await signCompactJws(PAYLOAD, main, JKU);
  const r = await verifyCompactJws(jws, jwksOf([other, main]));
  assert.equal(r, {
    ok: true,
    value: { payload: PAYLOAD, header: { alg: 'PS256', kid: main.kid, jku: JKU, x5t: main.x5t } },
  });
});

test('verify: a tampered payload fails', async () => {
  const [h, , s] = (await signCompactJws(PAYLOAD, main, JKU)).split('.');
  const forged = Buffer.from(JSON.stringify({ ...PAYLOAD, valor: { original: '1.00' } })).toString('base64url');
  assert.equal(await verifyCompactJws(`${h}.${forged}.${s}`, jwksOf([main])), {
    ok: false,
    reason: 'signature verification failed',
  });
});

test('verify: another key fails', async () => {
  const jws = await signCompactJws(PAYLOAD, main, JKU);
  assert.equal(await verifyCompactJws(jws, jwksOf([other])), {
    ok: false,
    reason: 'no key in the JWKS matches the JWS header',
  });
  // another key published under the same kid
  const impostor = { ...other.publicJwk, kid: main.kid };
  assert.equal(await verifyCompactJws(jws, { keys: [impostor] }), {
    ok: false,
    reason: 'signature verification failed',
  });
});

test('verify: x5t in the header must match the key', async () => {
  const jws = await signCompactJws(PAYLOAD, main, JKU);
  const wrongX5t = { ...main.publicJwk, x5t: other.x5t };
  assert.equal(await verifyCompactJws(jws, { keys: [wrongX5t] }), {
    ok: false,
    reason: 'the x5t header does not match the key in the JWKS',
  });
});

test('verify: malformed input', async () => {
  assert.equal(await verifyCompactJws('not-a-jws', jwksOf([main])), { ok: false, reason: 'malformed JWS' });
});

test('RS256 material signs and verifies too', async () => {
  const jws = await signCompactJws({ a: 1 }, rs, JKU);
  assert.is(b64urlJson(jws.split('.')[0]!)['alg'], 'RS256');
  const r = await verifyCompactJws(jws, jwksOf([rs, main]));
  assert.ok(r.ok && (r.value.payload as { a: number }).a === 1);
  assert.is(new X509Certificate(rs.certificatePem).verify(new X509Certificate(rs.certificatePem).publicKey), true);
});

test.run();
