// Sign-in (GET and POST /dashboard/login) and sign-out (POST /dashboard/logout). The sign-in
// form carries a token bound to a random pre-session cookie (csrf.ts), so a form posted from
// another site, or without the token, is refused like any other form of the dashboard.
import type { KoaContext } from '../../http/types';
import { isDomainError } from '../../errors/errors';
import { csrfOfLogin, newPreSession, tokensMatch } from '../csrf';
import { PRE_SESSION_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '../cookies';
import { html } from '../view/html';
import type { Locale, Texts } from '../view/i18n';
import { layout } from '../view/layout';
import type { Credential } from '../sessions.service';

export interface Visitor {
  koa: KoaContext;
  locale: Locale;
  t: Texts;
  nonce: string;
  secureCookies: boolean;
}

// Where to go after signing in: a dashboard path of this server only.
function nextOf(value: unknown): string {
  return typeof value === 'string' && /^\/dashboard(\/[^\s\\]*)?(\?[^\s\\]*)?$/.test(value) && !value.includes('//')
    ? value
    : '/dashboard';
}

export function loginPage(visitor: Visitor, problem?: string, status = 200): void {
  const { koa, t } = visitor;
  let pre = readCookie(koa, PRE_SESSION_COOKIE);
  if (!pre) {
    pre = newPreSession();
    setCookie(koa, PRE_SESSION_COOKIE, pre, { secure: visitor.secureCookies, maxAgeSeconds: 3600 });
  }
  const notice =
    problem ?? (koa.query.ended !== undefined ? t.expired : koa.query.out !== undefined ? t.signedOut : undefined);
  const next = nextOf(koa.query.next ?? (koa.request as { body?: { next?: unknown } }).body?.next);
  koa.status = status;
  koa.type = 'text/html; charset=utf-8';
  koa.body = layout(
    { locale: visitor.locale, t, nonce: visitor.nonce, title: t.signInTitle, here: koa.originalUrl },
    html`<div class="login panel">
      <h1>${t.signInTitle}</h1>
      <p class="muted">${t.signInIntro}</p>
      ${notice ? html`<p class="${problem ? 'error' : 'notice'}" role="alert">${notice}</p>` : ''}
      <form method="post" action="/dashboard/login">
        <input type="hidden" name="_csrf" value="${csrfOfLogin(pre)}" />
        <input type="hidden" name="next" value="${next}" />
        <label>${t.appId}<input name="appId" autocomplete="off" spellcheck="false" /></label>
        <p class="muted">${t.or}</p>
        <label>${t.clientId}<input name="clientId" autocomplete="username" spellcheck="false" /></label>
        <label>${t.clientSecret}<input name="clientSecret" type="password" autocomplete="current-password" /></label>
        <button type="submit">${t.signIn}</button>
      </form>
    </div>`,
  );
}

function credentialOf(body: Record<string, unknown>): Credential | undefined {
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 1024 ? v.trim() : '');
  const appId = str(body.appId);
  if (appId) return { appId };
  const clientId = str(body.clientId);
  const clientSecret = str(body.clientSecret);
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

export async function signIn(visitor: Visitor): Promise<void> {
  const { koa, t } = visitor;
  const body = ((koa.request as { body?: unknown }).body ?? {}) as Record<string, unknown>;
  const pre = readCookie(koa, PRE_SESSION_COOKIE);
  if (!pre || !tokensMatch(csrfOfLogin(pre), body._csrf)) return loginPage(visitor, t.csrfRefused, 403);
  const credential = credentialOf(body);
  if (!credential) return loginPage(visitor, t.badCredentials, 401);
  let sessionId: string;
  try {
    ({ sessionId } = await koa.state.requestContext.services.dashboardSessions.signIn(credential, koa.ip));
  } catch (error) {
    if (isDomainError(error) && (error.status === 401 || error.status === 403))
      return loginPage(visitor, t.badCredentials, 401);
    throw error;
  }
  setCookie(koa, SESSION_COOKIE, sessionId, { secure: visitor.secureCookies });
  setCookie(koa, PRE_SESSION_COOKIE, '', { secure: visitor.secureCookies, maxAgeSeconds: 0 });
  koa.status = 303;
  koa.redirect(nextOf(body.next));
}

export async function logout(visitor: Visitor, sessionId: string): Promise<void> {
  const { koa } = visitor;
  await koa.state.requestContext.services.dashboardSessions.signOut(sessionId);
  setCookie(koa, SESSION_COOKIE, '', { secure: visitor.secureCookies, maxAgeSeconds: 0 });
  koa.status = 303;
  koa.redirect('/dashboard/login?out=1');
}
