// The frame of every dashboard page: skip link, company and sign-out, the sections, the
// content; its style sheet and script are this server's files (assets.ts), the script allowed
// by the answer's nonce.
import { SCRIPT_NAME, STYLE_NAME } from '../assets';
import type { Section } from '../context';
import { html, type Html } from './html';
import type { Locale, Texts } from './i18n';

const SECTIONS: { section: Section; href: string; text: (t: Texts) => string; sandboxOnly?: boolean }[] = [
  { section: 'home', href: '/dashboard', text: (t) => t.home },
  { section: 'charges', href: '/dashboard/charges', text: (t) => t.charges },
  { section: 'pix', href: '/dashboard/pix', text: (t) => t.pix },
  { section: 'refunds', href: '/dashboard/refunds', text: (t) => t.refunds },
  { section: 'payments', href: '/dashboard/payments', text: (t) => t.payments },
  { section: 'subscriptions', href: '/dashboard/subscriptions', text: (t) => t.subscriptions },
  { section: 'recurrences', href: '/dashboard/recurrences', text: (t) => t.recurrences },
  { section: 'keys', href: '/dashboard/keys', text: (t) => t.keys },
  { section: 'subaccounts', href: '/dashboard/subaccounts', text: (t) => t.subaccounts },
  { section: 'webhooks', href: '/dashboard/webhooks', text: (t) => t.webhooks },
  { section: 'events', href: '/dashboard/events', text: (t) => t.events },
  { section: 'requests', href: '/dashboard/requests', text: (t) => t.requestLog },
  { section: 'sandbox', href: '/dashboard/sandbox', text: (t) => t.sandbox, sandboxOnly: true },
];

export interface Frame {
  locale: Locale;
  t: Texts;
  nonce: string;
  title: string;
  // signed in: the company's name, the section shown, the sign-out form's token
  signedIn?: { company: string; section: Section | undefined; csrf: string; sandbox: boolean };
  // the path and query of this page, for the language links
  here: string;
  // extra elements of <head> (the chart's style sheet)
  head?: Html;
  // scripts besides the dashboard's own (the chart library)
  scripts?: string[];
}

function languageLinks(frame: Frame): Html {
  const url = new URL(frame.here, 'http://x');
  const link = (lang: string, label: string, current: boolean) => {
    url.searchParams.set('lang', lang);
    return html`<a href="${url.pathname + url.search}" lang="${lang}" ${current ? html`aria-current="true"` : ''}
      >${label}</a
    >`;
  };
  return html`<span class="langs" aria-label="${frame.t.language}"
    >${link('pt-BR', 'PT', frame.locale === 'pt-BR')} · ${link('en', 'EN', frame.locale === 'en')}</span
  >`;
}

function header(frame: Frame): Html {
  const s = frame.signedIn;
  return html`<header class="top">
    <a class="brand" href="/dashboard">${frame.t.product} · ${frame.t.dashboard}</a>
    <div class="who">
      ${s ? html`<span>${s.company}</span>` : ''}${languageLinks(frame)}${
        s
          ? html`<form method="post" action="/dashboard/logout">
              <input type="hidden" name="_csrf" value="${s.csrf}" /><button type="submit">${frame.t.signOut}</button>
            </form>`
          : ''
      }
    </div>
  </header>`;
}

function nav(frame: Frame): Html {
  const s = frame.signedIn;
  if (!s) return html``;
  const items = SECTIONS.filter((x) => !x.sandboxOnly || s.sandbox).map(
    (x) =>
      html`<li>
        <a href="${x.href}" ${x.section === s.section ? html` aria-current="page"` : ''}>${x.text(frame.t)}</a>
      </li>`,
  );
  return html`<nav class="sections" aria-label="${frame.t.menu}">
    <ul>
      ${items}
    </ul>
  </nav>`;
}

export function layout(frame: Frame, body: Html): string {
  const scripts = [...(frame.scripts ?? []), `/dashboard/assets/${SCRIPT_NAME}`];
  return html`<!doctype html>
    <html lang="${frame.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${frame.title} · ${frame.t.product}</title>
        <link rel="stylesheet" href="/dashboard/assets/${STYLE_NAME}" />
        ${frame.head ?? ''}
      </head>
      <body>
        <a class="skip" href="#content">${frame.t.skip}</a>
        ${header(frame)} ${nav(frame)}
        <main id="content" tabindex="-1">${body}</main>
        ${scripts.map((src) => html`<script src="${src}" nonce="${frame.nonce}"></script>`)}
      </body>
    </html> `.text;
}

// The headers of every dashboard answer: scripts only by this answer's nonce, everything else
// only from this server, no framing, no sniffing, no referrer, nothing cached.
export function securityHeaders(nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      "style-src 'self'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
