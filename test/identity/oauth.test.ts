// OAuth2 client credentials for the Pix API and scope checks on its operations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { basic, createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
});
test.after(async () => server.close());

const token = (form: Record<string, string>, auth?: string) =>
  server.client.request('POST', '/oauth/token', { form, ...(auth ? { auth } : {}) });

test('client credentials give a bearer token with the requested scopes', async () => {
  const res = await token(
    { grant_type: 'client_credentials', scope: 'cob.read cob.write' },
    basic(acme.clientId, acme.clientSecret),
  );
  assert.is(res.status, 200, res.text);
  assert.is(res.body.token_type, 'Bearer');
  assert.is(res.body.scope, 'cob.read cob.write');
  assert.ok(res.body.expires_in > 0 && res.body.expires_in <= 3600);
  assert.is(res.headers.get('cache-control'), 'no-store');
});

test('without scope the token carries every Pix scope the application has', async () => {
  const res = await token({ grant_type: 'client_credentials' }, basic(acme.clientId, acme.clientSecret));
  assert.is(res.status, 200);
  assert.is(res.body.scope.split(' ').length, 24);
});

test('the same fields as JSON are accepted (some PSP clients send them so); other types are 415 in OAuth format', async () => {
  const res = await server.client.post(
    '/oauth/token',
    { grant_type: 'client_credentials', scope: 'cob.read' },
    { auth: basic(acme.clientId, acme.clientSecret) },
  );
  assert.equal([res.status, res.body.scope, res.body.token_type], [200, 'cob.read', 'Bearer'], res.text);
  const bad = await server.client.post(
    '/oauth/token',
    { grant_type: 'password' },
    { auth: basic(acme.clientId, acme.clientSecret) },
  );
  assert.equal([bad.status, bad.body.error], [400, 'unsupported_grant_type']);
  const text = await fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(acme.clientId, acme.clientSecret), 'content-type': 'text/plain' },
    body: 'grant_type=client_credentials',
  });
  assert.equal([text.status, ((await text.json()) as { error: string }).error], [415, 'invalid_request']);
});

test('a body that cannot be parsed is 400 invalid_request in OAuth2 format (RFC 6749 5.2)', async () => {
  const cases = [
    { type: 'application/json', body: '{"grant_type": "client_credentials",', status: 400 },
    { type: 'application/json', body: `{"scope": "${'x'.repeat(1_100_000)}"}`, status: 413 },
  ];
  for (const { type, body, status } of cases) {
    const res = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(acme.clientId, acme.clientSecret), 'content-type': type },
      body,
    });
    assert.is(res.status, status);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const answer = (await res.json()) as Record<string, unknown>;
    assert.equal(Object.keys(answer).sort(), ['error', 'error_description']);
    assert.is(answer.error, 'invalid_request');
    assert.type(answer.error_description, 'string');
  }
});

test('wrong secret, no credentials: 401 invalid_client', async () => {
  for (const auth of [basic(acme.clientId, 'nope'), undefined]) {
    const res = await token({ grant_type: 'client_credentials' }, auth);
    assert.is(res.status, 401, res.text);
    assert.is(res.body.error, 'invalid_client');
  }
});

test('unsupported grant and ungranted scope are refused in OAuth2 format', async () => {
  const grant = await token({ grant_type: 'password' }, basic(acme.clientId, acme.clientSecret));
  assert.is(grant.status, 400);
  assert.is(grant.body.error, 'unsupported_grant_type', grant.text);
  const missing = await token({ scope: 'cob.read' }, basic(acme.clientId, acme.clientSecret));
  assert.equal([missing.status, missing.body.error], [400, 'invalid_request']);
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: acme.accountId, application: { name: 'pix', type: 'API', scopes: ['cob.read'] } },
    { auth: acme.appID },
  );
  assert.is(app.status, 201, app.text);
  const scoped = await token(
    { grant_type: 'client_credentials', scope: 'cob.write' },
    basic(app.body.application.clientId, app.body.application.clientSecret),
  );
  assert.is(scoped.status, 400);
  assert.is(scoped.body.error, 'invalid_scope');
});

test('Pix operations need a valid bearer (401) carrying their scope (403), in problem+json', async () => {
  const none = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z');
  assert.is(none.status, 401);
  assert.match(none.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.is(none.body.status, 401);
  const forged = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z', {
    auth: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  });
  assert.is(forged.status, 401);
  // A token this server issued and verified once, with its signature altered.
  const valid = await pixToken(server.client, acme, 'cob.read');
  const list = '/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z';
  assert.is((await server.client.get(list, { auth: valid })).status, 200);
  const last = valid.at(-1) === 'A' ? 'B' : 'A';
  assert.is((await server.client.get(list, { auth: valid.slice(0, -2) + last + last })).status, 401);
  const readOnly = await pixToken(server.client, acme, 'pix.read');
  const denied = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z', {
    auth: readOnly,
  });
  assert.is(denied.status, 403, denied.text);
  assert.is(denied.body.type, 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado');
});

test('a token stops working once its application is removed', async () => {
  const app = await server.client.post(
    '/api/v1/application',
    { accountId: acme.accountId, application: { name: 'tmp', type: 'API', scopes: ['cob.read'] } },
    { auth: acme.appID },
  );
  const bearer = await pixToken(server.client, app.body.application, 'cob.read');
  // Used once first: its verified claims are kept, its application is still asked each time.
  const before = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z', {
    auth: bearer,
  });
  assert.is(before.status, 200, before.text);
  await server.client.delete('/api/v1/application', {
    body: { clientId: app.body.application.clientId },
    auth: acme.appID,
  });
  const res = await server.client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z', {
    auth: bearer,
  });
  assert.is(res.status, 401);
});

test.run();
