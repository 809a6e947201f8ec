// The headers every HTML answer carries, whichever route made it (src/lib/html.ts says why):
// a page that set its own Content-Security-Policy keeps it (with frame-ancestors 'none' added
// when it has none), any other gets the strictest one (nothing loads, nothing runs). Every
// answer, HTML or not, is marked nosniff: a JSON body or a YAML spec is never run as a page.
import type Koa from 'koa';
import { contentSecurityPolicy, HTML_SAFETY_HEADERS } from '../lib/html';
import type { AppState, KoaContext } from './types';

const CSP = 'Content-Security-Policy';

export function htmlSafetyHeaders(): Koa.Middleware<AppState> {
  return async (koa: KoaContext, next: Koa.Next) => {
    koa.set('X-Content-Type-Options', 'nosniff'); // (before: an error answer keeps it)
    await next();
    if (!/^text\/html\b/i.test(koa.response.get('Content-Type'))) return;
    for (const [name, value] of Object.entries(HTML_SAFETY_HEADERS)) if (!koa.response.get(name)) koa.set(name, value);
    const csp = koa.response.get(CSP);
    if (!csp) koa.set(CSP, contentSecurityPolicy());
    else if (!/(^|;)\s*frame-ancestors\s/i.test(csp)) koa.set(CSP, `${csp}; frame-ancestors 'none'`);
  };
}
