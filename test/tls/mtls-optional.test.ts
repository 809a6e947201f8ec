// PIXGATE_TLS=on in sandbox mode: mTLS is optional by default. A client without a certificate
// gets an unbound token and works as before (over HTTPS and plain HTTP); one with a
// certificate gets a bound token, which is then refused without it; a certificate presented is
// still checked (a revoked one is refused). With PIXGATE_MTLS=off nothing is asked.
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { freePort, startTestServer, type TestServer } from '../support/server';
import { claimsOf, TlsClient } from './support';

let server: TestServer;
let ca: string;
let company: TestCompany;
const clients: TlsClient[] = [];
const LIST = '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z';

function client(identity: ConstructorParameters<typeof TlsClient>[2] = {}): TlsClient {
  const made = new TlsClient(server.tlsUrl!, ca, identity);
  clients.push(made);
  return made;
}

test.before(async () => {
  server = await startTestServer({ PIXGATE_TLS: 'on', PIXGATE_TLS_PORT: String(await freePort()) });
  ca = (await server.client.get('/sandbox/ca.pem')).text;
  company = await createCompany(server.client);
});
test.after(async () => {
  for (const c of clients) c.close();
  await server.close();
});

test('sandbox mode with TLS on: mTLS optional by default, off without TLS, required outside sandbox mode', () => {
  assert.is(server.services.config.mtls.mode, 'optional');
  assert.is(loadConfig({}).mtls.mode, 'off');
  assert.is(
    loadConfig({ PIXGATE_TLS: 'on', PIXGATE_SANDBOX: 'false', PIXGATE_SECRETS_KEY: 'k'.repeat(32) }).mtls.mode,
    'required',
  );
  assert.throws(() => loadConfig({ PIXGATE_MTLS: 'required' }), /needs PIXGATE_TLS=on/);
  assert.throws(() => loadConfig({ PIXGATE_TLS: 'on', PIXGATE_SANDBOX: 'false' }), /PIXGATE_SECRETS_KEY/);
});

test('without a certificate: an unbound token, over HTTPS and over plain HTTP', async () => {
  const token = await client().token(company.clientId, company.clientSecret);
  assert.is(token.status, 200, token.text);
  assert.is(claimsOf(token.body.access_token).cnf, undefined);
  const bearer = await pixToken(server.client, company, 'cob.read');
  assert.is((await server.client.get(LIST, { auth: bearer })).status, 200);
  assert.is((await client().request('GET', LIST, { auth: bearer })).status, 200);
});

test('with a certificate: a bound token, refused without the certificate', async () => {
  const made = await server.client.post(
    `/api/v1/application/${company.clientId}/certificates`,
    { generateKey: true },
    { auth: company.appID },
  );
  assert.is(made.status, 201, made.text);
  assert.ok(made.body.pkcs12Password, 'a password is made when none is given');
  const withCert = client({ cert: made.body.certificate.certificate, key: made.body.privateKey });
  const token = await withCert.token(company.clientId, company.clientSecret);
  assert.is(claimsOf(token.body.access_token).cnf['x5t#S256'], made.body.certificate.thumbprint);
  const bearer = `Bearer ${token.body.access_token}`;
  assert.is((await withCert.request('GET', LIST, { auth: bearer })).status, 200);
  for (const refused of [
    await client().request('GET', LIST, { auth: bearer }),
    await server.client.get(LIST, { auth: bearer }),
  ]) {
    assert.is(refused.status, 401);
    assert.match(refused.body.detail, /bound to a client certificate.*presents no client certificate/);
  }
  // A certificate presented is checked even when none is required.
  await server.client.delete(`/api/v1/application/${company.clientId}/certificates/${made.body.certificate.id}`, {
    auth: company.appID,
  });
  const revoked = await withCert.token(company.clientId, company.clientSecret);
  assert.is(revoked.status, 401);
  assert.match(revoked.body.error_description, /revoked/);
});

test('certificates: listed and read without a key; another company sees none', async () => {
  const list = await server.client.get(`/api/v1/application/${company.clientId}/certificates`, { auth: company.appID });
  assert.is(list.status, 200, list.text);
  assert.ok(list.body.certificates.length >= 1);
  assert.not.match(list.text, /PRIVATE KEY/);
  const one = list.body.certificates[0];
  const read = await server.client.get(`/api/v1/application/${company.clientId}/certificates/${one.id}`, {
    auth: company.appID,
  });
  assert.equal(read.body.certificate, one);
  const other = await createCompany(server.client);
  const theirs = await server.client.get(`/api/v1/application/${company.clientId}/certificates`, { auth: other.appID });
  assert.is(theirs.status, 404);
});

test('bad requests say why', async () => {
  const post = (body: unknown) =>
    server.client.post(`/api/v1/application/${company.clientId}/certificates`, body, { auth: company.appID });
  assert.match((await post({})).body.error, /exactly one of csr, generateKey and certificate/);
  assert.match((await post({ csr: 'not a csr' })).body.error, /csr is not a PEM certificate signing request/);
  assert.match((await post({ certificate: ca })).body.error, /not issued by a CA this server trusts/);
  assert.match((await post({ csr: 'x', password: 'password1' })).body.error, /password goes with generateKey/);
});

test('no private key is readable in any table', async () => {
  const { rows } = await sql<{ text: string }>`
    select private_key_sealed as text, 1 as n from tls_authorities
    union all select certificate_pem, 2 from application_certificates order by n`.execute(server.database.db);
  assert.ok(rows.length >= 2);
  for (const row of rows) assert.not.match(row.text, /PRIVATE KEY/);
  assert.match(rows[0]!.text, /^sealed:v1:/);
});

test('PIXGATE_MTLS=off: TLS without client certificates, tokens unbound', async () => {
  const plain = await startTestServer({
    PIXGATE_TLS: 'on',
    PIXGATE_TLS_PORT: String(await freePort()),
    PIXGATE_MTLS: 'off',
  });
  try {
    const other = await createCompany(plain.client);
    // A client that has a certificate: none is asked for, so the token is not bound.
    const mine = await server.client.post(
      `/api/v1/application/${company.clientId}/certificates`,
      { generateKey: true },
      { auth: company.appID },
    );
    const c = new TlsClient(plain.tlsUrl!, (await plain.client.get('/sandbox/ca.pem')).text, {
      cert: mine.body.certificate.certificate,
      key: mine.body.privateKey,
    });
    clients.push(c);
    const token = await c.token(other.clientId, other.clientSecret);
    assert.is(token.status, 200, token.text);
    assert.is(claimsOf(token.body.access_token).cnf, undefined);
  } finally {
    await plain.close();
  }
});

test.run();
