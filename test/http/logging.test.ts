// One JSON log line per request with its request id, status and latency; credentials,
// secrets and tokens never appear in the logs.
import { Writable } from 'node:stream';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { freePort, TestClient } from '../support/server';
import { recordEvent } from '../../src/events/events.repository';

let lines: string[] = [];
let server: RunningServer;
let client: TestClient;

test.before(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ PORT: String(await freePort()), LOG_LEVEL: 'info' });
  const template = process.env.PIXGATE_TEST_TEMPLATE;
  server = await startServer({
    config,
    logger: pino({ level: 'info' }, sink),
    database: process.env.DATABASE_URL
      ? { url: process.env.DATABASE_URL, schema: `log_${Date.now()}` }
      : template
        ? { templateFile: template }
        : {},
  });
  client = new TestClient(server.url);
});
test.after(async () => {
  await server.close();
  if (process.env.DATABASE_URL) {
    const { dropSchema } = await import('../../src/db/database');
    await dropSchema(process.env.DATABASE_URL, server.database.schema!);
  }
});

test('a request is one line with request id, status and latency, and no secret', async () => {
  const created = await client.post('/api/v1/sandbox/companies', { name: 'Log Test' });
  const { appID, clientId, clientSecret } = created.body.application;
  lines = [];
  await client.get('/api/v1/company', { auth: appID, headers: { 'x-request-id': 'log-check-1' } });
  const token = await client.request('POST', '/oauth/token', {
    form: { grant_type: 'client_credentials' },
    auth: 'Basic ' + Buffer.from(`${clientId}:${clientSecret}`).toString('base64'),
  });
  await client.get('/pix/v2/cob?inicio=2026-01-01T00:00:00Z&fim=2026-02-01T00:00:00Z', {
    auth: `Bearer ${token.body.access_token}`,
  });
  const entries = lines.map((l) => JSON.parse(l));
  const request = entries.find((e) => e.requestId === 'log-check-1' && e.msg === 'request');
  assert.ok(request, lines.join('\n'));
  assert.is(request.status, 200);
  assert.is(request.path, '/api/v1/company');
  assert.type(request.ms, 'number');
  const all = lines.join('\n');
  for (const secret of [appID, clientSecret, token.body.access_token])
    assert.not.ok(all.includes(secret), 'a secret reached the logs');
});

test('a 4xx line says which error, with what message, for which company and application', async () => {
  const created = await client.post('/api/v1/sandbox/companies', { name: 'Log Errors' });
  const { appID } = created.body.application;
  const companyId = created.body.company.id as string;
  lines = [];
  await client.get('/api/v1/charge/no-such-charge', { auth: appID, headers: { 'x-request-id': 'log-404' } });
  await client.post('/api/v1/charge', { value: -1 }, { auth: appID, headers: { 'x-request-id': 'log-400' } });
  await client.get('/api/v1/company', { auth: 'nope', headers: { 'x-request-id': 'log-401' } });
  await client.get('/pix/v2/cob/x', { headers: { 'x-request-id': 'log-pix-401' } });
  await client.get('/nowhere', { headers: { 'x-request-id': 'log-route' } });
  const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
  const line = (id: string) => entries.find((e) => e.requestId === id);

  assert.is(line('log-404').status, 404);
  assert.is(line('log-404').companyId, companyId);
  assert.type(line('log-404').applicationId, 'string');
  assert.equal(line('log-404').error, { code: 'NOT_FOUND', message: 'Charge not found' });
  assert.is(line('log-400').status, 400);
  assert.is(line('log-400').companyId, companyId);
  assert.is(line('log-400').error.code, 'VALIDATION');
  assert.match(line('log-400').error.message, /\S/);
  assert.is(line('log-401').status, 401);
  assert.is(line('log-401').companyId, undefined);
  assert.type(line('log-401').error.code, 'string');
  assert.type(line('log-pix-401').error.message, 'string');
  assert.is(line('log-route').status, 404);
  assert.type(line('log-route').error.message, 'string');
  assert.is(
    entries.find((e) => e.status === 200 && e.error !== undefined),
    undefined,
    'no error on a success',
  );
});

test('a failed webhook attempt is a warning naming the company, delivery and error', async () => {
  const created = await client.post('/api/v1/sandbox/companies', { name: 'Log Hooks' });
  const { appID } = created.body.application;
  const companyId = created.body.company.id as string;
  const url = `http://127.0.0.1:${await freePort()}/hook`; // nothing listens: refused
  const hook = await client.post(
    '/api/v1/webhook',
    { webhook: { name: 'down', event: 'OPENPIX:CHARGE_CREATED', url, isActive: true } },
    { auth: appID },
  );
  assert.is(hook.status, 200, hook.text);
  await server.database.db
    .transaction()
    .execute(async (trx) =>
      recordEvent(trx, { companyId, type: 'OPENPIX:CHARGE_CREATED', payload: { charge: {} }, at: new Date() }),
    );
  lines = [];
  await server.services.jobs.runNow('webhooks');
  await server.services.jobs.runNow('webhooks');
  const attempts = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'webhook attempt failed');
  // The test event the new webhook got: said so, and not retried.
  const test = attempts.find((e) => e.test === true);
  assert.equal([test?.companyId, test?.errorClass, test?.gaveUp], [companyId, 'REFUSED', true], lines.join('\n'));
  const failed = attempts.find((e) => e.test === undefined);
  assert.ok(failed, lines.join('\n'));
  assert.is(failed.level, 40, 'warn');
  assert.is(failed.companyId, companyId);
  assert.type(failed.deliveryId, 'string');
  assert.match(failed.error, /ECONNREFUSED|refused|fetch failed/i);
  assert.type(failed.nextInMs, 'number');
  assert.is(failed.gaveUp, false);
});

test.run();
