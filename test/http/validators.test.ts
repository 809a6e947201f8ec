// Request validators are compiled when the server starts, not on an operation's first
// request: every operation has its parameter validator, and one for its body when it has a
// JSON or form body, and the count the start-up log reports is that sum. They share a few Ajv
// instances (dispatch.ts, through openapi-backend's customizeAjv option), not one each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { type Json, SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({ PIXGATE_SANDBOX: 'true' });
});
test.after(async () => {
  await server.close();
});

test('every request validator of both specs is compiled at start-up', async () => {
  let expected = 0;
  for (const name of SPEC_NAMES) {
    for (const { op } of operationsOf(await loadDereferencedSpec(name))) {
      const content = (op.requestBody?.content ?? {}) as Record<string, Json>;
      const body =
        content['application/json'] ?? content['multipart/form-data'] ?? content['application/x-www-form-urlencoded'];
      expected += 1 + (body?.schema ? 1 : 0);
    }
  }
  assert.is(server.validators, expected);
});

test('the validators share one Ajv instance per validation context, not one each', async () => {
  // Responses too (test servers check them): one answered request compiles its validators.
  const res = await server.client.get('/api/v1/sandbox/clock');
  assert.is(res.status, 200, res.text);
  // openapi-backend's four contexts (request body, parameters, response, response headers) in
  // each spec, at most; without sharing there would be one instance per validator.
  assert.ok(server.ajvInstances >= 2 && server.ajvInstances <= 8, `${server.ajvInstances} Ajv instances`);
});

test.run();
