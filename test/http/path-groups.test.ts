// Routing finds each path's operations within its group of paths (src/http/dispatch.ts,
// middleware()): every path of both specs still reaches its own operations, a literal path still
// wins over a templated one in another group, case is still ignored, and a path of no group is
// still answered in its API's format. A method the path does not declare answers 405 with the
// path's own methods in Allow, which names the path that matched.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadRawSpec, SPEC_NAMES } from '../support/spec';
import { createCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});
test.after(async () => server.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface SpecPath {
  template: string;
  methods: string[];
}

function specPaths(): SpecPath[] {
  return SPEC_NAMES.flatMap((name) =>
    Object.entries(loadRawSpec(name).paths as Record<string, object>).map(([template, item]) => ({
      template,
      methods: METHODS.filter((m) => m in item).map((m) => m.toUpperCase()),
    })),
  );
}

// A request path for a template: each parameter a value no literal segment has.
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, 'x1');

async function allowOf(path: string, methods: string[]): Promise<string | null> {
  const undeclared = METHODS.map((m) => m.toUpperCase()).find((m) => !methods.includes(m));
  if (!undeclared) return null;
  const body = undeclared === 'GET' ? {} : { raw: '{}', headers: { 'content-type': 'application/json' } };
  const res = await server.client.request(undeclared, path, body);
  assert.is(res.status, 405, `${undeclared} ${path}: ${res.text}`);
  return res.headers.get('allow');
}

test('every path of both specs reaches its own operations', async () => {
  const paths = specPaths();
  assert.ok(paths.length > 100, `${paths.length} paths`);
  let checked = 0;
  for (const { template, methods } of paths) {
    // (sandbox-only paths are served: the test server is a sandbox)
    const allow = await allowOf(concrete(template), methods);
    if (allow === null) continue;
    assert.is(allow, methods.join(', '), template);
    checked++;
  }
  assert.ok(checked > 100, `${checked} paths checked`);
});

test('a literal path wins over a templated one, across groups', async () => {
  // /qr/v2/cobv/{token} is in the group /qr/v2/cobv; /qr/v2/cobv itself is a token of /qr/v2/{token}
  const asToken = await server.client.request('POST', '/qr/v2/cobv');
  assert.is(asToken.status, 405, asToken.text);
  assert.is(asToken.headers.get('allow'), 'GET');
  const literal = await server.client.request('POST', '/qr/v2/cobv/x1');
  assert.is(literal.status, 405, literal.text);
  assert.is(literal.headers.get('allow'), 'GET');
  // and within a group: /api/v1/pix-keys/check before /api/v1/pix-keys/{pixKey}
  const check = specPaths().find((p) => p.template === '/api/v1/pix-keys/check')!;
  const byKey = specPaths().find((p) => p.template === '/api/v1/pix-keys/{pixKey}')!;
  assert.not.equal(check.methods, byKey.methods, 'the two paths must differ in methods for Allow to tell them apart');
  assert.is(await allowOf('/api/v1/pix-keys/check', check.methods), check.methods.join(', '));
});

test('case is ignored, as before grouping', async () => {
  const lower = await server.client.request('PATCH', '/api/v1/charge');
  const upper = await server.client.request('PATCH', '/API/V1/Charge');
  assert.is(lower.status, 405, lower.text);
  assert.is(upper.status, 405, upper.text);
  assert.is(upper.headers.get('allow'), lower.headers.get('allow'));
});

test('path parameters are read as the path matched: decoded, in their own case', async () => {
  const company = await createCompany(server.client);
  const made = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'Pão de Queijo/1', value: 500 },
    { auth: company.appID },
  );
  assert.is(made.status, 200, made.text);
  const encoded = encodeURIComponent('Pão de Queijo/1');
  for (const path of [`/api/v1/charge/${encoded}`, `/API/V1/Charge/${encoded}`, `/api/v1/charge/${encoded}/`]) {
    const res = await server.client.get(path, { auth: company.appID });
    assert.is(res.status, 200, `${path}: ${res.text}`);
    assert.is(res.body.charge.correlationID, 'Pão de Queijo/1', path);
  }
  // A malformed escape is the client's error, in the API's format.
  const bad = await server.client.get('/api/v1/charge/%E0%A4%A', { auth: company.appID });
  assert.is(bad.status, 400, bad.text);
  assert.match(bad.body.error, /percent-encoded/);
});

test('a path of no group, or of a group without it, is not found in its API format', async () => {
  for (const path of ['/api/v1/no-such-thing', '/api/v1/charge/x1/no-such-thing', '/api/v9/charge']) {
    const res = await server.client.request('GET', path);
    assert.is(res.status, 404, `${path}: ${res.text}`);
    assert.is(res.body.error, 'No such endpoint', path);
  }
  const pix = await server.client.request('GET', '/pix/v2/no-such-thing/x1');
  assert.is(pix.status, 404, pix.text);
  assert.match(pix.headers.get('content-type') ?? '', /application\/problem\+json/);
});

test.run();
