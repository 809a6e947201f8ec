// The server's own HTML pages (KYC merchant page, sandbox inbox): escaping, one layout in
// Portuguese, and the headers of every HTML answer (CSP with per-answer nonces, no framing).
import { randomBytes } from 'node:crypto';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccd;padding:.35rem .5rem;text-align:left;vertical-align:top}
.ok{color:#146c2e}.no{color:#a4262c}.muted{color:#5a6270}pre{white-space:pre-wrap;margin:0;font:inherit}
.notice{background:#eef5ff;border:1px solid #b6d2f5;padding:.6rem .8rem}`;

// A whole page; `head` adds elements to <head> (a meta refresh).
export function htmlPage(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

// Every HTML answer of this server: a Content-Security-Policy that names what the page may
// load and run (nothing else runs, whatever an attacker manages to inject), no framing by
// any site (frame-ancestors, and X-Frame-Options for older browsers: Swagger UI keeps an
// authorization, a framed page could be clicked through), no MIME sniffing, and no address
// (which may hold a token) sent on as a referrer. The HTTP edge (src/http/html-headers.ts)
// adds these to any text/html answer that lacks them; a page with inline script or style
// builds its own policy with a nonce made for that answer:
//
//   const nonce = newNonce();
//   headers = htmlPageHeaders({ script: [nonceSource(nonce)], style: [nonceSource(nonce)] });
//   body = `<style nonce="${nonce}">...</style><script nonce="${nonce}">...</script>`;

// A CSP nonce: 128 random bits, new for every answer (a nonce that repeats protects nothing).
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

// A nonce as a CSP source expression.
export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}

// What a page may use, by CSP directive; anything left out is refused (default-src 'none').
export interface PagePolicy {
  script?: string[];
  style?: string[];
  img?: string[];
  font?: string[];
  connect?: string[];
  // Where forms may post; default none.
  formAction?: string[];
}

export function contentSecurityPolicy(policy: PagePolicy = {}): string {
  const directives: Array<[string, string[] | undefined]> = [
    ['script-src', policy.script],
    ['style-src', policy.style],
    ['img-src', policy.img],
    ['font-src', policy.font],
    ['connect-src', policy.connect],
  ];
  return [
    "default-src 'none'",
    ...directives.filter(([, sources]) => sources?.length).map(([name, sources]) => `${name} ${sources!.join(' ')}`),
    `form-action ${policy.formAction?.length ? policy.formAction.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// The headers of an HTML answer under `policy`. Not cached: a nonce is good for one answer.
export function htmlPageHeaders(policy: PagePolicy = {}): Record<string, string> {
  return {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': contentSecurityPolicy(policy),
    ...HTML_SAFETY_HEADERS,
  };
}

// What every HTML answer carries besides its CSP.
export const HTML_SAFETY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

// The KYC page and the sandbox inbox: no script, no resource from anywhere (the style is
// inline); forms post only here.
export const PAGE_HEADERS: Record<string, string> = htmlPageHeaders({
  style: ["'unsafe-inline'"],
  formAction: ["'self'"],
});
