// Mutual TLS required on the Pix API (PIXGATE_MTLS=required), driven by real TLS clients: Node's
// https with a certificate and key and with a .p12 and its password, curl and openssl. A
// token and a cob with the right certificate; each refusal with its reason; a token bound to
// one certificate refused over another; the payload locations open over TLS without one.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueCertificate, createAuthority, generateRsaKeyPair } from '../../src/lib/x509';
import { createCompany, type TestCompany } from '../support/fixtures';
import { freePort, startTestServer, type TestServer } from '../support/server';
import { runsOnlyIf } from '../support/skip';
import { claimsOf, hasTool, keyAndCsr, run, TlsClient } from './support';

let server: TestServer;
let ca: string;
let company: TestCompany;
let generated: { certificate: any; privateKey: string; pkcs12: string; caCertificate: string };
const clients: TlsClient[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pixgate-mtls-'));
const [curl, openssl] = await Promise.all([hasTool('curl'), hasTool('openssl')]);

function client(identity: ConstructorParameters<typeof TlsClient>[2] = {}): TlsClient {
  const made = new TlsClient(server.tlsUrl!, ca, identity);
  clients.push(made);
  return made;
}

async function issue(clientId: string, appID: string, body: Record<string, unknown>) {
  const res = await server.client.post(`/api/v1/application/${encodeURIComponent(clientId)}/certificates`, body, {
    auth: appID,
  });
  assert.is(res.status, 201, res.text);
  return res.body;
}

test.before(async () => {
  server = await startTestServer({
    PIXGATE_TLS: 'on',
    PIXGATE_TLS_PORT: String(await freePort()),
    PIXGATE_MTLS: 'required',
  });
  const pem = await server.client.get('/sandbox/ca.pem');
  assert.is(pem.status, 200);
  ca = pem.text;
  company = await createCompany(server.client);
  generated = await issue(company.clientId, company.appID, { generateKey: true, password: 'senha-do-p12' });
});
test.after(async () => {
  for (const c of clients) c.close();
  await server.close();
});

test('GET /sandbox/ca.pem serves the CA that signed the server certificate', async () => {
  assert.match(ca, /^-----BEGIN CERTIFICATE-----/);
  assert.is(generated.caCertificate, ca);
  // The https client trusts only this CA and verifies the name: the handshake succeeds.
  const res = await client().request('GET', '/healthz');
  assert.is(res.status, 200);
});

test('a token and a cob with the right certificate (cert and key); the token is bound to it', async () => {
  const mine = client({ cert: generated.certificate.certificate, key: generated.privateKey });
  const token = await mine.token(company.clientId, company.clientSecret);
  assert.is(token.status, 200, token.text);
  assert.equal(claimsOf(token.body.access_token).cnf, { 'x5t#S256': generated.certificate.thumbprint });
  const cob = await mine.request('PUT', `/pix/v2/cob/${randomUUID().replace(/-/g, '')}`, {
    auth: `Bearer ${token.body.access_token}`,
    body: { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: company.pixKey },
  });
  assert.is(cob.status, 201, cob.text);
  // The payload location is open over TLS without a client certificate.
  const location = new URL(`https://${cob.body.loc.location}`);
  const payload = await client().request('GET', location.pathname);
  assert.is(payload.status, 200, payload.text);
  assert.match(String(payload.headers['content-type']), /application\/jose/);
});

test('the .p12 loads in Node with its password and gets a token', async () => {
  const pfx = Buffer.from(generated.pkcs12, 'base64');
  const token = await client({ pfx, passphrase: 'senha-do-p12' }).token(company.clientId, company.clientSecret);
  assert.is(token.status, 200, token.text);
  assert.is(claimsOf(token.body.access_token).cnf['x5t#S256'], generated.certificate.thumbprint);
  createSecureContext({ pfx, passphrase: 'senha-do-p12' });
  assert.throws(() => createSecureContext({ pfx, passphrase: 'wrong' }), /mac verify failure/);
});

test('a certificate from a CSR: the key never leaves the client', async () => {
  const { key, csr } = await keyAndCsr();
  const made = await issue(company.clientId, company.appID, { csr, validityDays: 30 });
  assert.is(made.certificate.origin, 'CSR');
  assert.is(made.privateKey, undefined);
  assert.match(made.certificate.subject, /serialNumber=/);
  const token = await client({ cert: made.certificate.certificate, key }).token(company.clientId, company.clientSecret);
  assert.is(token.status, 200, token.text);
});

async function refusedAtBoth(identity: ConstructorParameters<typeof TlsClient>[2], reason: RegExp) {
  const c = client(identity);
  const token = await c.token(company.clientId, company.clientSecret);
  assert.is(token.status, 401, token.text);
  assert.is(token.body.error, 'invalid_client');
  assert.match(token.body.error_description, reason);
  // The same connection with a token got elsewhere: problem+json 401 with the reason.
  const good = await client({ cert: generated.certificate.certificate, key: generated.privateKey }).token(
    company.clientId,
    company.clientSecret,
  );
  const unboundCob = await c.request('GET', '/pix/v2/cob/nao-existe-000000000000000', {
    auth: `Bearer ${good.body.access_token}`,
  });
  assert.is(unboundCob.status, 401, unboundCob.text);
  assert.match(String(unboundCob.headers['content-type']), /application\/problem\+json/);
}

test('refused: no certificate', async () => {
  await refusedAtBoth({}, /no client certificate was presented/);
});

test('refused: plain HTTP', async () => {
  const res = await server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials' },
    auth: 'Basic ' + Buffer.from(`${company.clientId}:${company.clientSecret}`).toString('base64'),
  });
  assert.is(res.status, 401);
  assert.match(res.body.error_description, /plain HTTP/);
});

test('refused: a certificate of an unknown CA', async () => {
  const stranger = await createAuthority('not the sandbox CA', new Date());
  const keys = await generateRsaKeyPair();
  const cert = await issueCertificate({
    authority: stranger,
    publicKey: keys.publicKey,
    subject: [{ CN: ['stranger'] }],
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    usage: 'client',
  });
  await refusedAtBoth({ cert, key: keys.privateKeyPem }, /unknown CA/);
});

test('refused: an expired certificate of the sandbox CA', async () => {
  const authority = await server.services.tlsAuthority.authority();
  const keys = await generateRsaKeyPair();
  const cert = await issueCertificate({
    authority,
    publicKey: keys.publicKey,
    subject: [{ CN: ['expired'] }],
    notBefore: new Date(Date.now() - 3 * 86_400_000),
    notAfter: new Date(Date.now() - 86_400_000),
    usage: 'client',
  });
  await refusedAtBoth({ cert, key: keys.privateKeyPem }, /has expired/);
});

test('refused: a certificate of another application of the company', async () => {
  const other = await server.client.post(
    '/api/v1/application',
    { accountId: company.accountId, application: { name: 'other', type: 'API', scopes: ['cob.read'] } },
    { auth: company.appID },
  );
  assert.is(other.status, 201, other.text);
  const theirs = await issue(other.body.application.clientId, company.appID, { generateKey: true });
  await refusedAtBoth({ cert: theirs.certificate.certificate, key: theirs.privateKey }, /another application/);
});

test('refused: a certificate bound to no application', async () => {
  const authority = await server.services.tlsAuthority.authority();
  const keys = await generateRsaKeyPair();
  const cert = await issueCertificate({
    authority,
    publicKey: keys.publicKey,
    subject: [{ CN: ['unbound'] }],
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    usage: 'client',
  });
  await refusedAtBoth({ cert, key: keys.privateKeyPem }, /bound to no application/);
});

test('refused: a revoked certificate, at once, on a connection already open', async () => {
  const made = await issue(company.clientId, company.appID, { generateKey: true });
  const c = client({ cert: made.certificate.certificate, key: made.privateKey });
  const token = await c.token(company.clientId, company.clientSecret);
  assert.is(token.status, 200, token.text);
  const read = () =>
    c.request('GET', '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z', {
      auth: `Bearer ${token.body.access_token}`,
    });
  assert.is((await read()).status, 200);
  const revoked = await server.client.delete(
    `/api/v1/application/${company.clientId}/certificates/${made.certificate.id}?reason=lost`,
    { auth: company.appID },
  );
  assert.is(revoked.status, 200, revoked.text);
  assert.is(revoked.body.certificate.status, 'REVOKED');
  const refused = await read();
  assert.is(refused.status, 401, refused.text);
  assert.match(refused.body.detail, /revoked/);
  const again = await c.token(company.clientId, company.clientSecret);
  assert.is(again.status, 401);
  assert.match(again.body.error_description, /revoked/);
});

test('a token bound to certificate A is refused over a connection with certificate B', async () => {
  const b = await issue(company.clientId, company.appID, { generateKey: true });
  const withA = client({ cert: generated.certificate.certificate, key: generated.privateKey });
  const withB = client({ cert: b.certificate.certificate, key: b.privateKey });
  const token = await withA.token(company.clientId, company.clientSecret);
  const path = '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z';
  assert.is((await withA.request('GET', path, { auth: `Bearer ${token.body.access_token}` })).status, 200);
  const refused = await withB.request('GET', path, { auth: `Bearer ${token.body.access_token}` });
  assert.is(refused.status, 401, refused.text);
  assert.match(String(refused.headers['www-authenticate']), /error="invalid_token"/);
  assert.match(refused.body.detail, /another client certificate/);
});

test('the platform API answers over HTTPS without a client certificate', async () => {
  const res = await client().request('GET', '/api/v1/application', { auth: company.appID });
  assert.is(res.status, 200, res.text);
  assert.ok(res.body.applications.some((a: { clientId: string }) => a.clientId === company.clientId));
});

const withCurl = runsOnlyIf(curl, 'curl is not installed');
withCurl('curl --cert --key --cacert: a token and a cob', async () => {
  writeFileSync(join(dir, 'ca.pem'), ca);
  writeFileSync(join(dir, 'client.crt'), generated.certificate.certificate);
  writeFileSync(join(dir, 'client.key'), generated.privateKey, { mode: 0o600 });
  const tls = ['--cert', join(dir, 'client.crt'), '--key', join(dir, 'client.key'), '--cacert', join(dir, 'ca.pem')];
  const token = await run('curl', [
    '-sS',
    ...tls,
    '-u',
    `${company.clientId}:${company.clientSecret}`,
    '-d',
    'grant_type=client_credentials',
    '-d',
    'scope=cob.write',
    `${server.tlsUrl}/oauth/token`,
  ]);
  assert.is(token.code, 0, token.stderr);
  const access = JSON.parse(token.stdout).access_token as string;
  assert.ok(claimsOf(access).cnf);
  const cob = await run('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    ...tls,
    '-X',
    'PUT',
    '-H',
    `Authorization: Bearer ${access}`,
    '-H',
    'content-type: application/json',
    '-d',
    JSON.stringify({ valor: { original: '1.00' }, chave: company.pixKey }),
    `${server.tlsUrl}/pix/v2/cob/${randomUUID().replace(/-/g, '')}`,
  ]);
  assert.is(cob.stdout, '201', cob.stderr);
  const without = await run('curl', [
    '-sS',
    '--cacert',
    join(dir, 'ca.pem'),
    '-d',
    'grant_type=client_credentials',
    '-u',
    `${company.clientId}:${company.clientSecret}`,
    `${server.tlsUrl}/oauth/token`,
  ]);
  assert.match(without.stdout, /no client certificate/);
});

const withOpenssl = runsOnlyIf(openssl, 'openssl is not installed');
withOpenssl('openssl s_client: the server asks for the sandbox CA and a token comes back over it', async () => {
  writeFileSync(join(dir, 'ca.pem'), ca);
  writeFileSync(join(dir, 'client.crt'), generated.certificate.certificate);
  writeFileSync(join(dir, 'client.key'), generated.privateKey, { mode: 0o600 });
  const form = 'grant_type=client_credentials';
  const basic = Buffer.from(`${company.clientId}:${company.clientSecret}`).toString('base64');
  const requestText =
    `POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic ${basic}\r\n` +
    `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`;
  const port = new URL(server.tlsUrl!).port;
  const out = await run(
    'openssl',
    [
      's_client',
      '-connect',
      `127.0.0.1:${port}`,
      '-servername',
      'localhost',
      '-verify_return_error',
      '-CAfile',
      join(dir, 'ca.pem'),
      '-cert',
      join(dir, 'client.crt'),
      '-key',
      join(dir, 'client.key'),
      '-ign_eof',
    ],
    requestText,
  );
  assert.match(out.stdout, /Acceptable client certificate CA names[\s\S]*pixgate sandbox CA/);
  assert.match(out.stdout, /Verify return code: 0 \(ok\)/);
  assert.match(out.stdout, /HTTP\/1\.1 200 OK[\s\S]*"access_token"/);
});

test.run();
