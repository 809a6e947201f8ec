// An application's IP allowlist (allowedIps) holds wherever its credentials are used: the
// platform API's Authorization header, the Pix API's token endpoint, and every bearer call
// of the Pix API (a token issued before is refused from another address too). The address
// is the socket's: a forwarding header does not choose it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findActiveApplicationByClientId } from '../../src/identity/identity.repository';
import { principalOf } from '../../src/identity/identity.service';
import { basic, createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
});
test.after(async () => server.close());

async function newApplication(name: string, allowedIps: string[]) {
  const res = await server.client.post(
    '/api/v1/application',
    { accountId: acme.accountId, application: { name, type: 'API', allowedIps } },
    { auth: acme.appID },
  );
  assert.is(res.status, 201, res.text);
  return res.body.application as { clientId: string; clientSecret: string; appID: string };
}

const token = (app: { clientId: string; clientSecret: string }, headers: Record<string, string> = {}) =>
  server.client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials', scope: 'cob.read' },
    auth: basic(app.clientId, app.clientSecret),
    headers,
  });

// A token of the application as the server signs them (one issued before the list refused
// this address, or stolen and replayed from elsewhere).
async function tokenOf(clientId: string): Promise<string> {
  const row = await findActiveApplicationByClientId(server.database.db, clientId);
  const issued = await server.services.oauth.issueToken(principalOf(row!), 'client_credentials', 'cob.read');
  return `Bearer ${issued.access_token}`;
}

const COBS = '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T23:59:59Z';

test('another address is refused on the platform API, at the token endpoint and on every bearer call', async () => {
  const app = await newApplication('longe', ['10.9.9.9']);
  const platform = await server.client.get('/api/v1/charge/none', { auth: app.appID });
  assert.equal(
    [platform.status, platform.body],
    [403, { error: 'Your IP address is not allowed to use this application' }],
  );
  const issued = await token(app);
  assert.is(issued.status, 401, issued.text);
  assert.equal(issued.body, {
    error: 'invalid_client',
    error_description: 'Your IP address is not allowed to use this application',
  });
  assert.is(issued.headers.get('www-authenticate'), 'Basic realm="pixgate"');
  const cobs = await server.client.get(COBS, { auth: await tokenOf(app.clientId) });
  assert.is(cobs.status, 403, cobs.text);
  assert.match(cobs.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(
    [cobs.body.type, cobs.body.status, cobs.body.detail],
    ['https://pix.bcb.gov.br/api/v2/error/AcessoNegado', 403, 'Your IP address is not allowed to use this application'],
  );
  const put = await server.client.put(
    '/pix/v2/cob/abcdefghijklmnopqrstuvwxyz0123',
    { valor: { original: '1.00' } },
    {
      auth: await tokenOf(app.clientId),
    },
  );
  assert.is(put.status, 403, put.text);
});

test('a forwarding header does not choose the address', async () => {
  const app = await newApplication('encaminhado', ['10.9.9.9']);
  const forwarded = { 'x-forwarded-for': '10.9.9.9', 'x-real-ip': '10.9.9.9', forwarded: 'for=10.9.9.9' };
  assert.is((await token(app, forwarded)).status, 401);
  const cobs = await server.client.get(COBS, { auth: await tokenOf(app.clientId), headers: forwarded });
  assert.is(cobs.status, 403, cobs.text);
});

test('the listed address gets its token and its calls answered', async () => {
  const app = await newApplication('perto', ['10.9.9.9', '127.0.0.1']);
  const issued = await token(app);
  assert.is(issued.status, 200, issued.text);
  const cobs = await server.client.get(COBS, { auth: `Bearer ${issued.body.access_token}` });
  assert.is(cobs.status, 200, cobs.text);
  assert.is((await server.client.get('/api/v1/charge/none', { auth: app.appID })).status, 404);
});

test('a wrong secret is told apart from a refused address only after the secret matched', async () => {
  const app = await newApplication('segredo', ['10.9.9.9']);
  const wrong = await token({ clientId: app.clientId, clientSecret: 'Client_Secret_wrong' });
  assert.equal([wrong.status, wrong.body.error_description], [401, 'Unknown client or wrong secret']);
});

test.run();
