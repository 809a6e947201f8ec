// Pieces most pages share: tables that scroll sideways on a phone, status badges, notices.
import type { DashContext } from '../context';
import { html, type Html } from './html';
import { statusName, type Texts } from './i18n';

export interface Column<R> {
  head: string;
  cell: (row: R) => Html | string | number;
  num?: boolean;
}

// A table in a labelled region that scrolls (and can be focused to scroll by keyboard).
export function table<R>(label: string, columns: Column<R>[], rows: R[], t: Texts): Html {
  if (rows.length === 0) return html`<p class="muted">${t.none}</p>`;
  return html`<div class="region" role="region" aria-label="${label}" tabindex="0">
    <table>
      <thead>
        <tr>
          ${columns.map((c) => html`<th scope="col" ${c.num ? html` class="num"` : ''}>${c.head}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (r) =>
            html`<tr>
              ${columns.map((c) => html`<td${c.num ? html` class="num"` : ''}>${c.cell(r)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

const GOOD = new Set(['COMPLETED', 'CONFIRMED', 'SUCCEEDED', 'APPROVED', 'ACTIVE_OK', 'DEVOLVIDO']);
const WAITING = new Set(['ACTIVE', 'PENDING', 'IN_PROCESSING', 'CREATED', 'EM_PROCESSAMENTO']);
const BAD = new Set(['EXPIRED', 'FAILED', 'REJECTED', 'DENIED', 'CANCELED', 'NAO_REALIZADO']);

export function badge(t: Texts, status: string | undefined): Html {
  const tone = !status
    ? 'neutral'
    : GOOD.has(status)
      ? 'ok'
      : WAITING.has(status)
        ? 'wait'
        : BAD.has(status)
          ? 'no'
          : 'neutral';
  return html`<span class="badge b-${tone}">${statusName(t, status)}</span>`;
}

// The message an action left in the address (?msg=), shown once as a status line.
export function flash(ctx: DashContext): Html {
  const msg = ctx.query.msg;
  return html`<p id="form-status" role="status" ${msg ? html`class="notice"` : ''}>${msg ?? ''}</p>`;
}

// A form that posts to `action` with the session's CSRF token; `async`: the page's script
// sends it and refreshes the live panels (it still works as a plain form).
export function postForm(
  ctx: DashContext,
  action: string,
  inner: Html,
  options: { async?: boolean; label?: string } = {},
): Html {
  return html`<form
    method="post"
    action="${action}"
    ${options.async ? html` data-async` : ''}${options.label ? html` aria-label="${options.label}"` : ''}
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" />${inner}
  </form>`;
}

// Previous/next links of a list paged by offset (skip).
export function pager(ctx: DashContext, base: string, skip: number, limit: number, total: number): Html {
  const pages = Math.max(1, Math.ceil(total / limit));
  const current = Math.floor(skip / limit) + 1;
  const at = (s: number) => {
    const url = new URL(base, 'http://x');
    url.searchParams.set('skip', String(s));
    return url.pathname + url.search;
  };
  return html`<nav class="pager" aria-label="${ctx.t.page}">
    ${skip > 0 ? html`<a href="${at(Math.max(0, skip - limit))}">← ${ctx.t.page} ${current - 1}</a>` : ''}
    <span>${ctx.t.page} ${current} ${ctx.t.of} ${pages}</span>
    ${skip + limit < total ? html`<a href="${at(skip + limit)}">${ctx.t.page} ${current + 1} →</a>` : ''}
  </nav>`;
}

export function skipOf(ctx: DashContext): number {
  const n = Number(ctx.query.skip ?? 0);
  return Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 0;
}
