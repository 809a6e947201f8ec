// The dashboard (/dashboard): one company's pages, server-rendered, signed in by a session
// cookie. This middleware owns every path under /dashboard: its files, sign-in and sign-out,
// then the pages of routes.ts for a live session, each POST checked for its CSRF token. What
// goes wrong is answered as a dashboard page (its own 404 for anything not found, which is
// also what another company's object is), never in an API's format.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { AppState, KoaContext } from '../http/types';
import { isDomainError } from '../errors/errors';
import { assetNamed, SCRIPT_NAME, STYLE_NAME } from './assets';
import type { Answer, DashContext, Page } from './context';
import { csrfOfSession, tokensMatch } from './csrf';
import { loginPage, logout, signIn, type Visitor } from './pages/login';
import { routeOf } from './routes';
import { layout, securityHeaders } from './view/layout';
import { html } from './view/html';
import { chooseLocale, TEXTS, type Locale } from './view/i18n';
import { readCookie, setCookie, SESSION_COOKIE, LANG_COOKIE } from './cookies';

export interface DashboardOptions {
  sandbox: boolean;
  // Secure cookies (the public URL is https)
  secureCookies: boolean;
}

// The dashboard's paths: pages for a person, not API calls (the request log leaves them out,
// or a charge page's refresh every 2 s would fill it).
function isDashboardPath(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

export function dashboardMiddleware(options: DashboardOptions): Koa.Middleware<AppState> {
  // (not an async function: every API request passes through, and would pay for its promise)
  return (koa, next) => (isDashboardPath(koa.path) ? serveDashboard(koa, options) : next());
}

async function serveDashboard(koa: KoaContext, options: DashboardOptions): Promise<void> {
  if (koa.path.startsWith('/dashboard/assets/')) return serveAsset(koa);
  const nonce = randomBytes(16).toString('base64');
  koa.set(securityHeaders(nonce));
  const visitor = visitorOf(koa, options, nonce);
  try {
    await answerRequest(koa, visitor, options);
  } catch (error) {
    renderFailure(koa, visitor, error);
  }
}

function visitorOf(koa: KoaContext, options: DashboardOptions, nonce: string): Visitor {
  const choice = typeof koa.query.lang === 'string' ? koa.query.lang : undefined;
  const locale: Locale = chooseLocale(choice ?? readCookie(koa, LANG_COOKIE), koa.get('accept-language'));
  if (choice === 'en' || choice === 'pt-BR')
    setCookie(koa, LANG_COOKIE, locale, { secure: options.secureCookies, maxAgeSeconds: 365 * 86400 });
  return { koa, locale, t: TEXTS[locale], nonce, secureCookies: options.secureCookies };
}

async function answerRequest(koa: KoaContext, visitor: Visitor, options: DashboardOptions): Promise<void> {
  const post = koa.method === 'POST';
  if (koa.path === '/dashboard/login') return post ? signIn(visitor) : loginPage(visitor);
  const sessionId = readCookie(koa, SESSION_COOKIE);
  const services = koa.state.requestContext.services;
  const principal = sessionId ? await services.dashboardSessions.resume(sessionId, koa.ip) : undefined;
  if (!principal || !sessionId) {
    if (sessionId) setCookie(koa, SESSION_COOKIE, '', { secure: options.secureCookies, maxAgeSeconds: 0 });
    const back = koa.method === 'GET' ? `?next=${encodeURIComponent(koa.originalUrl)}` : '';
    return koa.redirect(`/dashboard/login${back}${sessionId ? `${back ? '&' : '?'}ended=1` : ''}`);
  }
  koa.state.requestContext.principal = principal;
  const csrf = csrfOfSession(sessionId);
  const form = post ? formOf(koa) : {};
  if (post && !tokensMatch(csrf, form._csrf)) return refuseForm(koa, visitor);
  if (post && koa.path === '/dashboard/logout') return logout(visitor, sessionId);
  const route = routeOf(koa.method, koa.path, options.sandbox);
  if (!route) return notFound(koa, visitor);
  const ctx: DashContext = {
    koa,
    services,
    principal,
    locale: visitor.locale,
    t: visitor.t,
    csrf,
    params: route.params,
    query: queryOf(koa),
    form,
    sandbox: options.sandbox,
    wantsJson: (koa.get('accept') ?? '').startsWith('application/json'),
  };
  await respond(koa, visitor, ctx, await route.page(ctx));
}

async function respond(koa: KoaContext, visitor: Visitor, ctx: DashContext, answer: Answer): Promise<void> {
  if (answer.kind === 'redirect') {
    koa.status = 303;
    koa.redirect(answer.to);
    return;
  }
  if (answer.kind === 'json') {
    koa.body = answer.body;
    return;
  }
  if (answer.kind === 'file') {
    koa.type = answer.contentType;
    koa.set('Content-Disposition', `inline; filename="${answer.filename}"`);
    koa.set('Cache-Control', 'private, no-store');
    koa.body = answer.body;
    return;
  }
  const company = await ctx.services.companies.get(ctx.principal.companyId);
  koa.type = 'text/html; charset=utf-8';
  koa.set('Content-Language', visitor.locale);
  const extra = answer.section === 'home';
  koa.body = layout(
    {
      locale: visitor.locale,
      t: visitor.t,
      nonce: visitor.nonce,
      title: answer.title,
      here: koa.originalUrl,
      signedIn: { company: company.name, section: answer.section, csrf: ctx.csrf, sandbox: ctx.sandbox },
      ...(extra
        ? {
            head: html`<link rel="stylesheet" href="/dashboard/assets/uPlot.min.css" />`,
            scripts: ['/dashboard/assets/uPlot.iife.min.js'],
          }
        : {}),
    },
    answer.body,
  );
}

function formOf(koa: KoaContext): Record<string, string> {
  const body = (koa.request as { body?: unknown }).body;
  const out: Record<string, string> = {};
  if (typeof body !== 'object' || body === null) return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>).slice(0, 50))
    if (typeof v === 'string' && v.length <= 10_000) out[k] = v;
  return out;
}

function queryOf(koa: KoaContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(koa.query)) if (typeof v === 'string' && v.length <= 500) out[k] = v;
  return out;
}

function serveAsset(koa: KoaContext): void {
  const name = koa.path.slice('/dashboard/assets/'.length);
  const asset = assetNamed(name);
  if (!asset || koa.method !== 'GET') return notFound(koa, undefined);
  koa.type = asset.type;
  // names with a content hash never change; the packages' files change with an upgrade
  const hashed = name === STYLE_NAME || name === SCRIPT_NAME;
  koa.set('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=86400');
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.body = asset.body;
}

// The dashboard's own pages for what went wrong.
function bare(koa: KoaContext, visitor: Visitor | undefined, status: number, title: string, text: string): void {
  const v = visitor ?? { locale: 'pt-BR' as const, t: TEXTS['pt-BR'], nonce: randomBytes(16).toString('base64') };
  if (!visitor) koa.set(securityHeaders(v.nonce));
  koa.status = status;
  koa.type = 'text/html; charset=utf-8';
  koa.body = layout(
    { locale: v.locale, t: v.t, nonce: v.nonce, title, here: koa.originalUrl },
    html`<h1>${title}</h1>
      <p>${text}</p>
      <p><a href="/dashboard">${v.t.back}</a></p>`,
  );
}

function notFound(koa: KoaContext, visitor: Visitor | undefined): void {
  const t = visitor?.t ?? TEXTS['pt-BR'];
  bare(koa, visitor, 404, t.notFoundTitle, t.notFound);
}

function refuseForm(koa: KoaContext, visitor: Visitor): void {
  bare(koa, visitor, 403, visitor.t.errorTitle, visitor.t.csrfRefused);
}

function renderFailure(koa: KoaContext, visitor: Visitor, error: unknown): void {
  if (isDomainError(error) && error.status === 404) return notFound(koa, visitor);
  const known = isDomainError(error) && error.status < 500;
  if (!known) koa.state.requestContext.log.error({ err: error }, 'dashboard page failed');
  const message = known ? error.message : visitor.t.errorBody;
  if ((koa.get('accept') ?? '').startsWith('application/json')) {
    koa.status = known ? error.status : 500;
    koa.body = { ok: false, message };
    return;
  }
  bare(koa, visitor, known ? error.status : 500, visitor.t.errorTitle, message);
}

export type { Page };
