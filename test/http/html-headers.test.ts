// Every HTML answer carries a Content-Security-Policy (nothing loads or runs beyond what the
// page names; inline scripts and styles only under that answer's nonce), refuses framing
// (frame-ancestors 'none' and X-Frame-Options: DENY), is not sniffed, and sends no referrer:
// the landing page, the API reference, every guide, the KYC merchant page, the sandbox inbox
// and the payer's page. An HTML answer that sets nothing gets the strictest policy at the
// edge; every answer is nosniff.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlSafetyHeaders } from '../../src/http/html-headers';
import type { AppState } from '../../src/http/types';
import { PROJECT_ROOT } from '../../src/lib/root';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let company: TestCompany;

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
});
test.after(async () => server.close());

async function htmlPaths(): Promise<string[]> {
  // (the guides: the lower-case files; upper-case ones are engineering notes, not served)
  const guides = readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => /^[a-z0-9-]+\.md$/.test(f))
    .map((f) => `/guides/${f.slice(0, -3)}`);
  const charge = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'html-1', value: 100 },
    {
      auth: company.appID,
    },
  );
  assert.is(charge.status, 200, charge.text);
  const onboarding = await server.client.post(
    '/api/v1/kyc/onboarding',
    {
      taxID: '11222333000181',
      correlationID: 'html-kyc',
      representatives: [{ taxID: '07149875300', name: 'Carla Ribeiro', email: 'carla@tecidos.com.br' }],
    },
    { auth: company.appID },
  );
  assert.is(onboarding.status, 201, onboarding.text);
  return [
    '/',
    '/docs',
    ...guides,
    new URL(charge.body.charge.paymentLinkUrl).pathname,
    new URL(onboarding.body.onboarding.link).pathname,
    '/api/v1/sandbox/kyc/inbox?address=carla@tecidos.com.br',
  ];
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test('every HTML page carries a CSP, refuses framing, is not sniffed and sends no referrer', async () => {
  const paths = await htmlPaths();
  assert.ok(paths.length >= 10, paths.join(' '));
  for (const path of paths) {
    const res = await server.client.get(path);
    assert.is(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path);
    const csp = directives(res.headers.get('content-security-policy') ?? '');
    assert.equal(csp.get('default-src'), ["'none'"], `${path}: default-src`);
    assert.equal(csp.get('frame-ancestors'), ["'none'"], `${path}: frame-ancestors`);
    assert.equal(csp.get('base-uri'), ["'none'"], `${path}: base-uri`);
    assert.is(res.headers.get('x-frame-options'), 'DENY', path);
    assert.is(res.headers.get('x-content-type-options'), 'nosniff', path);
    assert.is(res.headers.get('referrer-policy'), 'no-referrer', path);
    for (const name of ['script-src', 'style-src']) {
      const sources = csp.get(name) ?? [];
      assert.not.ok(sources.includes("'unsafe-eval'"), `${path}: ${name} allows eval`);
      assert.ok(!sources.includes("'unsafe-inline'") || name === 'style-src', `${path}: ${name} allows inline`);
    }
    // An inline script or style runs only under this answer's nonce.
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    // (tags, not the text of scripts, which may spell "<style>" in a string or a comment)
    const markup = res.text.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
    for (const tag of markup.match(/<(script|style)\b[^>]*>/g) ?? []) {
      if (/\bsrc=/.test(tag)) continue;
      const inlineStyleAllowed = (csp.get('style-src') ?? []).includes("'unsafe-inline'") && tag.startsWith('<style');
      assert.ok(inlineStyleAllowed || (nonce && tag.includes(`nonce="${nonce}"`)), `${path}: ${tag} has no nonce`);
    }
  }
});

test('a nonce is new for every answer', async () => {
  const nonceOf = async (path: string) =>
    /'nonce-([^']+)'/.exec((await server.client.get(path)).headers.get('content-security-policy') ?? '')?.[1];
  for (const path of ['/', '/docs', '/guides/charges']) {
    const first = await nonceOf(path);
    assert.ok(first, path);
    assert.is.not(await nonceOf(path), first, path);
  }
});

test('the landing page lists the guides of docs/, not the engineering notes', async () => {
  const landing = await server.client.get('/');
  assert.match(landing.text, /href="\/guides\/charges"/);
  assert.not.match(landing.text, /href="\/guides\/[A-Z]/);
  assert.ok(readdirSync(join(PROJECT_ROOT, 'docs')).includes('HACKING.md'), 'docs/HACKING.md exists');
  assert.is((await server.client.get('/guides/HACKING')).status, 404);
});

test('API answers and reference assets are nosniff too', async () => {
  for (const path of ['/api/v1/charge/none', '/docs/specs/pix.yaml', '/docs/assets/swagger-ui-bundle.js', '/healthz']) {
    const res = await server.client.get(path);
    assert.is(res.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('the edge gives an HTML answer without headers the strictest policy, and adds frame-ancestors', async () => {
  const app = new Koa<AppState>();
  app.use(htmlSafetyHeaders());
  app.use(async (koa) => {
    koa.type = 'text/html';
    if (koa.path === '/own') koa.set('Content-Security-Policy', "default-src 'none'; img-src 'self'");
    if (koa.path === '/framable') koa.set('X-Frame-Options', 'SAMEORIGIN');
    koa.body = '<p>hello</p>';
  });
  const http = app.listen(0, '127.0.0.1');
  await new Promise((ok) => http.once('listening', ok));
  try {
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const bare = await fetch(`${base}/bare`);
    assert.is(
      bare.headers.get('content-security-policy'),
      "default-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    assert.equal(
      ['x-frame-options', 'x-content-type-options', 'referrer-policy'].map((h) => bare.headers.get(h)),
      ['DENY', 'nosniff', 'no-referrer'],
    );
    const own = await fetch(`${base}/own`);
    assert.is(own.headers.get('content-security-policy'), "default-src 'none'; img-src 'self'; frame-ancestors 'none'");
    // a page's own choice of a header is kept
    assert.is((await fetch(`${base}/framable`)).headers.get('x-frame-options'), 'SAMEORIGIN');
  } finally {
    await new Promise((ok) => http.close(ok));
  }
});

test.run();
