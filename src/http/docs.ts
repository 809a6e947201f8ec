// GET /docs: a browsable reference of both specs (Swagger UI, served from the package).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Router from '@koa/router';
import { createRequire } from 'node:module';

// The folder of swagger-ui-dist's files, found without loading the package: its entry point
// loads the whole UI bundle into the server (about 20 MB of memory) just to name the folder.
function getAbsoluteFSPath(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}
import type { AppState } from './types';
import { PROJECT_ROOT } from '../lib/root';
import { htmlPageHeaders, newNonce, nonceSource } from '../lib/html';

const SPECS_DIR = join(PROJECT_ROOT, 'specs');
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

// Swagger UI's files come from this server; its one inline script (the set-up) runs under the
// answer's nonce. Its stylesheet's icons are data: URIs; "Try it out" and the Authorize
// dialog's token request reach this server only (the served specs name it). Its style
// attributes are set by script (React), which a CSP does not govern.
function page(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pixgate API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script nonce="${nonce}">
window.ui = SwaggerUIBundle({
  urls: [{ url: '/docs/specs/platform.yaml', name: 'Platform API (/api/v1)' }, { url: '/docs/specs/pix.yaml', name: 'Pix API v2.8.2 (/pix/v2)' }],
  dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
  // "Try it out" open on every operation, durations shown, operations filterable by tag
  tryItOutEnabled: true, displayRequestDuration: true, filter: true, persistAuthorization: true,
  // no badge fetched from validator.swagger.io: nothing leaves this server
  validatorUrl: 'none'
});
</script></body></html>`;
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

export function mountDocs(router: Router<AppState>): void {
  router.get('/docs', async (koa) => {
    const nonce = newNonce();
    koa.type = 'text/html';
    koa.set(htmlPageHeaders(policyOf(nonce)));
    koa.body = page(nonce);
  });
  router.get('/docs/specs/:name', async (koa) => {
    const name = koa.params.name;
    if (name !== 'platform.yaml' && name !== 'pix.yaml') return;
    koa.type = 'application/yaml';
    // The documents name a relative server; served, they name the one they came from, so the
    // page's "Try it out" and the curl it shows reach this server on any host and port.
    koa.body = readFileSync(resolve(SPECS_DIR, name), 'utf8').replace(
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
