// What a dashboard page gets (the signed-in company, the reader's language, the request's
// values) and what it answers (a page, a redirect, or JSON for the page's script).
import type { KoaContext, RequestContext } from '../http/types';
import type { Html } from './view/html';
import type { Locale, Texts } from './view/i18n';
import type { Principal } from './sessions.service';

export type Services = RequestContext['services'];

export type Section =
  | 'home'
  | 'charges'
  | 'pix'
  | 'refunds'
  | 'payments'
  | 'subscriptions'
  | 'recurrences'
  | 'keys'
  | 'subaccounts'
  | 'webhooks'
  | 'events'
  | 'requests'
  | 'sandbox';

export interface DashContext {
  koa: KoaContext;
  services: Services;
  principal: Principal;
  locale: Locale;
  t: Texts;
  // the token every form of this session carries (csrf.ts)
  csrf: string;
  params: Record<string, string>;
  query: Record<string, string>;
  form: Record<string, string>;
  sandbox: boolean;
  // the request asks for JSON (a form sent by the page's script)
  wantsJson: boolean;
}

export type Answer =
  | { kind: 'page'; title: string; section: Section; body: Html }
  | { kind: 'redirect'; to: string }
  | { kind: 'json'; body: unknown }
  | { kind: 'file'; body: Buffer; contentType: string; filename: string };

export type Page = (ctx: DashContext) => Promise<Answer>;

export const page = (section: Section, title: string, body: Html): Answer => ({ kind: 'page', section, title, body });
export const redirect = (to: string): Answer => ({ kind: 'redirect', to });

// After an action: JSON for the page's script, else back to the page with a message.
export function done(ctx: DashContext, to: string, message: string): Answer {
  if (ctx.wantsJson) return { kind: 'json', body: { ok: true, message } };
  const sep = to.includes('?') ? '&' : '?';
  return redirect(`${to}${sep}msg=${encodeURIComponent(message)}`);
}

// A query value that is one short string, else undefined.
export function one(value: string | undefined, max = 200): string | undefined {
  const v = value?.trim();
  return v && v.length <= max ? v : undefined;
}
