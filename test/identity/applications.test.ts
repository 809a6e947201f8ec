// Applications: creation rules, scopes, deletion, and the Authorization header.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
});
test.after(async () => server.close());

const newApp = (accountId: string, application: Record<string, unknown>) => ({ accountId, application });

test('a MASTER application creates an API application with scopes; its appID works', async () => {
  const res = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'erp', type: 'API', scopes: ['CHARGE_GET'] }),
    { auth: acme.appID },
  );
  assert.is(res.status, 201, res.text);
  const app = res.body.application;
  assert.is(app.type, 'API');
  assert.is(app.isActive, true);
  assert.equal(app.scopes, ['CHARGE_GET']);
  assert.match(app.clientId, /^Client_Id_/);
  assert.match(app.clientSecret, /^Client_Secret_/);
  assert.is(Buffer.from(app.appID, 'base64').toString(), `${app.clientId}:${app.clientSecret}`);

  // Scope enforced: APPLICATION_POST is not among its scopes.
  const denied = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'x', type: 'API', scopes: ['CHARGE_GET'] }),
    { auth: app.appID },
  );
  assert.is(denied.status, 403);
  assert.match(denied.body.error, /APPLICATION_POST/);
});

test('invalid scopes are listed by name', async () => {
  const res = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'x', type: 'API', scopes: ['CHARGE_GET', 'FOO_BAR', 'NOPE'] }),
    { auth: acme.appID },
  );
  assert.is(res.status, 400);
  assert.is(res.body.error, 'Invalid scopes: FOO_BAR, NOPE');
});

test('accountId is required (validation error with details)', async () => {
  const res = await server.client.post(
    '/api/v1/application',
    { application: { name: 'x', type: 'API' } },
    { auth: acme.appID },
  );
  assert.is(res.status, 400);
  assert.ok(Array.isArray(res.body.details), res.text);
  assert.ok(
    res.body.details.some((d: { field: string }) => d.field.endsWith('accountId')),
    res.text,
  );
});

test('only MASTER applications create other application types', async () => {
  const created = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'api', type: 'API', scopes: ['APPLICATION_POST'] }),
    { auth: acme.appID },
  );
  assert.is(created.status, 201);
  const res = await server.client.post('/api/v1/application', newApp(acme.accountId, { name: 'm2', type: 'MASTER' }), {
    auth: created.body.application.appID,
  });
  assert.is(res.status, 400);
  assert.is(res.body.error, 'Only MASTER application can create other application types');
});

test('without feature BAAS applications cannot be created', async () => {
  const plain = await createCompany(server.client, { features: [] });
  const res = await server.client.post('/api/v1/application', newApp(plain.accountId, { name: 'x', type: 'API' }), {
    auth: plain.appID,
  });
  assert.is(res.status, 403);
  assert.is(res.body.error, 'You need feature BAAS to access this endpoint');
});

test('with APPLICATION_SCOPES_REQUIRED scopes are required', async () => {
  const strict = await createCompany(server.client, { features: ['BAAS', 'APPLICATION_SCOPES_REQUIRED'] });
  const res = await server.client.post('/api/v1/application', newApp(strict.accountId, { name: 'x', type: 'API' }), {
    auth: strict.appID,
  });
  assert.is(res.status, 400);
  assert.is(res.body.error, 'Scopes are required');
});

test('an account of another company is not found', async () => {
  const other = await createCompany(server.client);
  const res = await server.client.post('/api/v1/application', newApp(other.accountId, { name: 'x', type: 'API' }), {
    auth: acme.appID,
  });
  assert.is(res.status, 404);
});

test('delete: removedAt set, credential stops working; master cannot be deleted; unknown is 404', async () => {
  const created = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'tmp', type: 'API', scopes: ['CHARGE_GET'] }),
    { auth: acme.appID },
  );
  const app = created.body.application;
  // Used before its removal: its header is then known as verified to this process.
  // (A charge nobody made: 404 once the caller is authenticated and has CHARGE_GET.)
  for (let i = 0; i < 2; i++) {
    const used = await server.client.get('/api/v1/charge/nobody-made-this', { auth: app.appID });
    assert.is(used.status, 404, used.text);
  }
  const del = await server.client.delete('/api/v1/application', { body: { clientId: app.clientId }, auth: acme.appID });
  assert.is(del.status, 200, del.text);
  assert.is(del.body.success, true);
  const after = await server.client.post('/api/v1/application', newApp(acme.accountId, { name: 'x', type: 'API' }), {
    auth: app.appID,
  });
  assert.is(after.status, 401);
  const again = await server.client.delete('/api/v1/application', {
    body: { clientId: app.clientId },
    auth: acme.appID,
  });
  assert.is(again.status, 404);
  assert.is(again.body.error, 'Application not found');
  const master = await server.client.delete('/api/v1/application', {
    body: { clientId: acme.clientId },
    auth: acme.appID,
  });
  assert.is(master.status, 400);
  assert.is(master.body.error, 'You cannot delete a master application');
  const missing = await server.client.delete('/api/v1/application', { body: {}, auth: acme.appID });
  assert.is(missing.status, 400);
  assert.ok(
    missing.body.details.some((d: { field: string }) => d.field.endsWith('clientId')),
    missing.text,
  );
});

test('an application of another company is not found, not forbidden', async () => {
  const other = await createCompany(server.client);
  const res = await server.client.delete('/api/v1/application', {
    body: { clientId: other.clientId },
    auth: acme.appID,
  });
  assert.is(res.status, 404);
});

test('missing, malformed and wrong credentials are 401 in the platform format', async () => {
  // acme's own header has verified before: a wrong secret for its clientId still fails.
  const wrongSecrets = [`${acme.clientId}:wrong`, `${acme.clientId}:${acme.clientSecret}x`];
  // Node's base64 decoder ignores what follows the padding: such a header is not acme's appID.
  const trailing = [`${acme.appID}x`, `${acme.appID}AAAA`];
  for (const auth of [
    undefined,
    'garbage',
    ...wrongSecrets.map((s) => Buffer.from(s).toString('base64')),
    ...trailing,
  ]) {
    const res = await server.client.post(
      '/api/v1/application',
      newApp(acme.accountId, { name: 'x' }),
      auth === undefined ? {} : { auth },
    );
    assert.is(res.status, 401, `${auth}: ${res.text}`);
    assert.type(res.body.error, 'string');
  }
});

test('an appID is read with or without its padding, after Bearer or Basic', async () => {
  const unpadded = acme.appID.replace(/=+$/, '');
  for (const auth of [acme.appID, unpadded, `Bearer ${acme.appID}`, `Basic ${unpadded}`]) {
    const res = await server.client.get('/api/v1/charge/nobody-made-this', { auth });
    assert.is(res.status, 404, `${auth}: ${res.text}`);
  }
});

test('an IP allowlist refuses other addresses', async () => {
  const created = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'ip', type: 'API', allowedIps: ['10.1.2.3'] }),
    { auth: acme.appID },
  );
  assert.is(created.status, 201, created.text);
  const res = await server.client.delete('/api/v1/application', {
    body: { clientId: 'x' },
    auth: created.body.application.appID,
  });
  assert.is(res.status, 403);
  assert.match(res.body.error, /IP/);
  const allowed = await server.client.post(
    '/api/v1/application',
    newApp(acme.accountId, { name: 'ip2', type: 'API', allowedIps: ['127.0.0.1'] }),
    { auth: acme.appID },
  );
  const ok = await server.client.delete('/api/v1/application', {
    body: { clientId: 'Client_Id_unknown' },
    auth: allowed.body.application.appID,
  });
  assert.is(ok.status, 404);
});

test.run();
