// GET /: what this server is and where to go next (the reference of each API, the guides,
// the sandbox's first steps); GET /guides/{name}: a guide of docs/ rendered as a page.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Router from '@koa/router';
import { marked } from 'marked';
import type { AppState, KoaContext } from './types';
import { htmlPageHeaders, newNonce, nonceSource } from '../lib/html';
import { PROJECT_ROOT } from '../lib/root';

const DOCS_DIR = join(PROJECT_ROOT, 'docs');
// Guides are the lower-case files of docs/; the upper-case ones (ARCHITECTURE.md, HACKING.md,
// ...) are notes for the people who work on pixgate, read in the repository, not served.
const GUIDE_NAME = /^[a-z0-9-]{1,64}$/;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f4f5f7;padding:.8rem;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.3rem .5rem;vertical-align:top}a{color:#0b5cad}`;

// A page with its one style under this answer's nonce; links and images of this server only.
function page(koa: KoaContext, title: string, body: string): void {
  const nonce = newNonce();
  koa.type = 'text/html';
  koa.set(htmlPageHeaders({ style: [nonceSource(nonce)], img: ["'self'"] }));
  koa.body = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style nonce="${nonce}">${STYLE}</style></head><body>${body}</body></html>`;
}

function guides(): string[] {
  return readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .filter((name) => GUIDE_NAME.test(name))
    .sort();
}

function titleOf(name: string): string {
  const first = readFileSync(resolve(DOCS_DIR, `${name}.md`), 'utf8').split('\n')[0] ?? '';
  return first.replace(/^#\s*/, '') || name;
}

function landing(koa: KoaContext, sandbox: boolean): void {
  const list = guides()
    .map((g) => `<li><a href="/guides/${g}">${titleOf(g)}</a></li>`)
    .join('');
  const quickStart = sandbox
    ? `<h2>Sandbox quick start</h2>
<ol><li>Make a company: <code>curl -X POST $URL/api/v1/sandbox/companies -H 'content-type: application/json' -d '{"name":"Acme"}'</code>
(it answers an <code>appID</code> for the platform API and a <code>clientId</code>/<code>clientSecret</code> for the Pix API).
A new database also made a <em>Demo Company</em>: its credentials are in the server's first start-up log (<code>make demo-credentials</code>, with the server stopped, issues new ones).</li>
<li>Create a charge: <code>POST /api/v1/charge</code> with <code>Authorization: &lt;appID&gt;</code>.</li>
<li>Pay it as a payer would: <code>POST /api/v1/sandbox/pay</code> with the charge's <code>brCode</code>.</li>
<li>Move the company's clock to see expiries and due dates: <code>POST /api/v1/sandbox/clock/advance</code>.</li></ol>`
    : '';
  page(
    koa,
    'pixgate',
    `<h1>pixgate</h1>
<p>A Pix payment platform: the platform API under <code>/api/v1</code> and the Central Bank's standard Pix receiver
API v2.8.2 under <code>/pix/v2</code>, over one ledger. Money moves through a simulated Pix rail${sandbox ? ' (sandbox mode)' : ''}.</p>
<h2>Reference</h2>
<ul><li><a href="/docs">API reference</a> (both APIs, with "Try it out")</li>
<li><a href="/docs/specs/platform.yaml">platform.yaml</a> and <a href="/docs/specs/pix.yaml">pix.yaml</a> (OpenAPI 3)</li></ul>
${quickStart}
<h2>Guides</h2><ul>${list}</ul>`,
  );
}

export function mountLanding(router: Router<AppState>, sandbox: boolean): void {
  router.get('/', async (koa) => landing(koa, sandbox));
  router.get('/guides/:name', async (koa) => {
    const name = koa.params.name!;
    const file = resolve(DOCS_DIR, `${name}.md`);
    if (!GUIDE_NAME.test(name) || !existsSync(file)) return;
    const html = await marked.parse(readFileSync(file, 'utf8'));
    page(koa, titleOf(name), `<p><a href="/">pixgate</a> · <a href="/docs">API reference</a></p>${html}`);
  });
}
