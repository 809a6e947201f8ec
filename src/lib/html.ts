// The server's own HTML pages (KYC merchant page, sandbox inbox): escaping, one layout in
// Portuguese, and the headers that keep them script-free and inside this server.
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

// No script, no resource from anywhere (the style is inline); forms post only here; the
// page's address (which may hold a token) is not sent on as a referrer.
export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};
