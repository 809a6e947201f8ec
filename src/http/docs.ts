// GET /docs: a browsable reference of both specs (Swagger UI, served from the package), whose
// "Try it out" works as it opens for the company that just authorized: the served specs name
// this server and prefill the list periods around today, and the page puts the company's own
// Pix key where a Pix API example names a key (GET /docs/defaults answers it to the caller).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Router from '@koa/router';
import { createRequire } from 'node:module';
import { stringify } from 'yaml';
import type { Services } from '../services';
import { BoundedMap } from '../lib/bounded-map';
import { errors } from '../errors/errors';
import { loadSpecDocument, type SpecDocument, type SpecName } from './spec-document';
import type { AppState, KoaContext } from './types';
import { htmlPageHeaders, newNonce, nonceSource } from '../lib/html';
import { connectionOf } from './client-connection';

// The folder of swagger-ui-dist's files, found without loading the package: its entry point
// loads the whole UI bundle into the server (about 20 MB of memory) just to name the folder.
function getAbsoluteFSPath(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

// Query parameters of a period whose examples become the days around today when served.
const PERIOD_START = new Set(['start', 'inicio']);
const PERIOD_END = new Set(['end', 'fim']);
const PERIOD_DAYS_BEFORE = 30;
const DAY_MS = 86_400_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// Every parameter object of a spec (components and operations).
function* parametersOf(node: unknown): Generator<Json> {
  if (Array.isArray(node)) for (const item of node) yield* parametersOf(item);
  else if (isObject(node)) {
    if (typeof node.name === 'string' && node.in === 'query') yield node;
    for (const value of Object.values(node)) yield* parametersOf(value);
  }
}

// The `chave` values of the Pix API's request examples: the page's "Try it out" swaps them
// for the company's own key (a key of another company answers 400).
function exampleKeysOf(document: SpecDocument): string[] {
  const keys = new Set<string>();
  const visit = (node: unknown, inExample: boolean): void => {
    if (Array.isArray(node)) node.forEach((item) => visit(item, inExample));
    else if (isObject(node))
      for (const [k, v] of Object.entries(node)) {
        if (inExample && k === 'chave' && typeof v === 'string') keys.add(v);
        visit(v, inExample || k === 'value');
      }
  };
  visit(document.components?.examples, false);
  visit(document.paths, false);
  return [...keys];
}

// A spec as served on `day`: list periods from 30 days before it to the end of the next day
// (a fresh company's charges are in the list "Try it out" opens with). Kept per day.
const served = new BoundedMap<string, string>(8);
function servedSpec(name: SpecName, day: string): string {
  const cached = served.get(`${name}:${day}`);
  if (cached) return cached;
  const document = loadSpecDocument(name);
  const from = new Date(Date.parse(`${day}T00:00:00Z`) - PERIOD_DAYS_BEFORE * DAY_MS).toISOString().slice(0, 10);
  const to = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  for (const parameter of parametersOf(document)) {
    if (!('example' in parameter)) continue;
    if (PERIOD_START.has(parameter.name as string)) parameter.example = `${from}T00:00:00Z`;
    if (PERIOD_END.has(parameter.name as string)) parameter.example = `${to}T23:59:59Z`;
  }
  const text = stringify(document, { lineWidth: 0 });
  served.set(`${name}:${day}`, text);
  return text;
}

// Swagger UI's files come from this server; its one inline script (the set-up) runs under the
// answer's nonce (NONCE in the page's text, replaced per answer). Its stylesheet's icons are
// data: URIs; "Try it out", the Authorize dialog's token request and the defaults reach this
// server only (the served specs name it). Its style attributes are set by script (React),
// which a CSP does not govern.
const NONCE = '{{nonce}}';
function page(exampleKeys: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pixgate API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script nonce="${NONCE}">
// The keys the Pix API examples name: a request that sends one gets the caller's own key.
const EXAMPLE_KEYS = ${JSON.stringify(exampleKeys)};
async function ownKeyIn(req) {
  const auth = req.headers && (req.headers.Authorization || req.headers.authorization);
  if (!auth || typeof req.body !== 'string' || !new URL(req.url, location.href).pathname.startsWith('/pix/v2/')) return req;
  if (!EXAMPLE_KEYS.some((key) => req.body.includes(JSON.stringify(key)))) return req;
  const res = await fetch('/docs/defaults', { headers: { authorization: auth } }).catch(() => undefined);
  const chave = res && res.ok ? (await res.json()).chave : undefined;
  if (chave) for (const key of EXAMPLE_KEYS) req.body = req.body.split(JSON.stringify(key)).join(JSON.stringify(chave));
  return req;
}
window.ui = SwaggerUIBundle({
  urls: [{ url: '/docs/specs/platform.yaml', name: 'Platform API (/api/v1)' }, { url: '/docs/specs/pix.yaml', name: 'Pix API v2.8.2 (/pix/v2)' }],
  dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  // "Try it out" open on every operation, durations shown, operations filterable by tag
  tryItOutEnabled: true, displayRequestDuration: true, filter: true, persistAuthorization: true,
  requestInterceptor: ownKeyIn,
  // no badge fetched from validator.swagger.io: nothing leaves this server
  validatorUrl: 'none'
});
</script></body></html>`;
}

// The caller's defaults for the page: its company's default Pix key. By the credentials of
// either API (an appID, or a Pix API bearer token); nothing without them.
async function defaultsOf(koa: KoaContext, services: Services) {
  const authorization = koa.get('authorization');
  if (!authorization) throw errors.unauthorized('Send the Authorization header the page authorized with');
  const connection = connectionOf(koa);
  const presented = connection.tls ? connection.certificate?.thumbprint : undefined;
  const principal = /^Bearer\s/i.test(authorization)
    ? await services.oauth.authenticateBearer(authorization, { ip: koa.ip, presented })
    : await services.identity.authenticateAppId(authorization, koa.ip);
  return { chave: (await services.pixKeys.defaultKey(principal)) ?? null };
}

const policyOf = (nonce: string) => ({
  script: ["'self'", nonceSource(nonce)],
  style: ["'self'", ...swaggerStyleHashes()],
  img: ["'self'", 'data:'],
  connect: ["'self'"],
});

// Swagger UI renders a few <style> elements of its own (the logo's SVG carries one): fixed
// texts of its scripts, allowed by their hashes, read from the installed version's files once.
let styleHashes: string[] | undefined;
function swaggerStyleHashes(): string[] {
  styleHashes ??= ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'].flatMap((file) =>
    [...readFileSync(resolve(getAbsoluteFSPath(), file), 'utf8').matchAll(STYLE_ELEMENT)].map(
      (m) =>
        `'sha256-${createHash('sha256')
          .update(JSON.parse(`"${m[1]}"`))
          .digest('base64')}'`,
    ),
  );
  return styleHashes;
}
const STYLE_ELEMENT = /createElement\("style",null,"((?:[^"\\]|\\.)*)"\)/g;

export function mountDocs(router: Router<AppState>, services: Services): void {
  let pageHtml: string | undefined;
  router.get('/docs', async (koa) => {
    const nonce = newNonce();
    koa.type = 'text/html';
    koa.set(htmlPageHeaders(policyOf(nonce)));
    pageHtml ??= page(exampleKeysOf(loadSpecDocument('pix')));
    koa.body = pageHtml.replace(NONCE, nonce);
  });
  router.get('/docs/defaults', async (koa) => {
    koa.set('Cache-Control', 'no-store');
    koa.body = await defaultsOf(koa, services);
  });
  router.get('/docs/specs/:name', async (koa) => {
    const name = koa.params.name;
    if (name !== 'platform.yaml' && name !== 'pix.yaml') return;
    koa.type = 'application/yaml';
    // The documents name a relative server; served, they name the one they came from, so the
    // page's "Try it out" and the curl it shows reach this server on any host and port.
    koa.body = servedSpec(name === 'pix.yaml' ? 'pix' : 'platform', new Date().toISOString().slice(0, 10)).replace(
      /^servers:\n(?: {2}.*\n)+/m,
      // (koa.origin is the Origin request header in Koa 3, null on a page load)
      `servers:\n  - url: ${koa.protocol}://${koa.host}\n    description: This server\n`,
    );
  });
  router.get('/docs/assets/:file', async (koa) => {
    const file = koa.params.file!;
    if (!ASSETS.has(file)) return;
    koa.type = file.split('.').pop()!;
    koa.set('Cache-Control', 'public, max-age=86400');
    koa.body = readFileSync(resolve(getAbsoluteFSPath(), file));
  });
}
