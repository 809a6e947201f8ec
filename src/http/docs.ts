// GET /docs: a browsable reference of both specs (Swagger UI, served from the package).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Router from '@koa/router';
import { getAbsoluteFSPath } from 'swagger-ui-dist';
import type { AppState } from './dispatch';

const SPECS_DIR = resolve(import.meta.dirname, '../../specs');
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-32x32.png',
]);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pixgate API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  urls: [{ url: '/docs/specs/platform.yaml', name: 'Platform API (/api/v1)' }, { url: '/docs/specs/pix.yaml', name: 'Pix API v2.8.2 (/pix/v2)' }],
  dom_id: '#ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout'
});
</script></body></html>`;

export function mountDocs(router: Router<AppState>): void {
  router.get('/docs', async (koa) => {
    koa.type = 'text/html';
    koa.body = PAGE;
  });
  router.get('/docs/specs/:name', async (koa) => {
    const name = koa.params.name;
    if (name !== 'platform.yaml' && name !== 'pix.yaml') return;
    koa.type = 'application/yaml';
    koa.body = readFileSync(resolve(SPECS_DIR, name));
  });
  router.get('/docs/assets/:file', async (koa) => {
    const file = koa.params.file!;
    if (!ASSETS.has(file)) return;
    koa.type = file.split('.').pop()!;
    koa.set('Cache-Control', 'public, max-age=86400');
    koa.body = readFileSync(resolve(getAbsoluteFSPath(), file));
  });
}
