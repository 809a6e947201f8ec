// One JSON log line per request with its request id, status and latency; credentials,
// secrets and tokens never appear in the logs.
import { Writable } from 'node:stream';
import pino from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { freePort, TestClient } from '../support/server';

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

test.run();
