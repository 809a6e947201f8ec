// With PIXGATE_SANDBOX=false the sandbox group does not exist.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ PIXGATE_SANDBOX: 'false' });
});
test.after(async () => server.close());

test('sandbox routes answer 404 when sandbox mode is off', async () => {
  for (const [method, path] of [
    ['POST', '/api/v1/sandbox/companies'],
    ['GET', '/api/v1/sandbox/clock'],
    ['POST', '/api/v1/sandbox/clock/advance'],
  ] as const) {
    const res = await server.client.request(method, path, method === 'POST' ? { body: {} } : {});
    assert.is(res.status, 404, `${method} ${path}: ${res.text}`);
    assert.type(res.body.error, 'string');
  }
});

test.run();
