// The request log: the company's API calls, newest first, filtered by status (a class or a
// code), operationId, application (client_id) and period (Brasília days), paged by the
// service's cursor; each opens its detail (with the redacted bodies of a 4xx or 5xx). Read
// through the request log service with the signed-in company, as GET /api/v1/request-logs.
import type { components } from '../../../generated/platform.types';
import { one, page, type Answer, type DashContext } from '../context';
import { dateTime, fromBrasiliaLocal } from '../view/format';
import { html, queryOf, type Html } from '../view/html';
import { table } from '../view/parts';

type S = components['schemas'];
const PAGE_SIZE = 25;
const CLASSES = ['2xx', '3xx', '4xx', '5xx'];

function filtersOf(ctx: DashContext) {
  const status = one(ctx.query.status, 3);
  const day = (v: string | undefined) => (v && fromBrasiliaLocal(v) ? v : undefined);
  const operation = one(ctx.query.operationId, 200);
  const client = one(ctx.query.clientId, 255);
  return {
    status: status && /^[1-5]([0-9]{2}|xx)$/.test(status) ? status : undefined,
    operationId: operation && /^[A-Za-z0-9_.-]+$/.test(operation) ? operation : undefined,
    clientId: client && !client.includes('\u0000') ? client : undefined,
    from: day(ctx.query.from),
    to: day(ctx.query.to),
  };
}

function statusBadge(status: number): Html {
  const tone = status >= 500 ? 'no' : status >= 400 ? 'wait' : 'ok';
  return html`<span class="badge b-${tone}">${status}</span>`;
}

export async function requestLogPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const f = filtersOf(ctx);
  const cursor = one(ctx.query.cursor, 200);
  const to = f.to ? fromBrasiliaLocal(f.to) : undefined;
  const { requestLogs, pageInfo } = await ctx.services.requestLogs.list(ctx.principal.companyId, {
    ...(f.status ? { status: f.status } : {}),
    ...(f.operationId ? { operationId: f.operationId } : {}),
    ...(f.clientId ? { clientId: f.clientId } : {}),
    ...(f.from ? { start: fromBrasiliaLocal(f.from)!.toISOString() } : {}),
    ...(to ? { end: new Date(to.getTime() + 86_400_000).toISOString() } : {}),
    ...(cursor && /^[A-Za-z0-9_-]+$/.test(cursor) ? { cursor } : {}),
    limit: PAGE_SIZE,
  });
  const keep = { ...f };
  return page(
    'requests',
    t.requestLog,
    html`<h1>${t.requestLog}</h1>
      <form class="filters" method="get" action="/dashboard/requests" role="search">
        <label
          >${t.status}<select name="status">
            <option value="">${t.allStatuses}</option>
            ${CLASSES.map((c) => html`<option value="${c}" ${f.status === c ? html` selected` : ''}>${c}</option>`)}
          </select></label
        >
        <label>${t.operation}<input name="operationId" value="${f.operationId ?? ''}" /></label>
        <label>${t.application}<input name="clientId" value="${f.clientId ?? ''}" /></label>
        <label>${t.from}<input type="date" name="from" value="${f.from ?? ''}" /></label>
        <label>${t.to}<input type="date" name="to" value="${f.to ?? ''}" /></label>
        <button type="submit">${t.filter}</button>
      </form>
      ${table(
        t.requestLog,
        [
          { head: t.createdAt, cell: (r: S['RequestLogEntry']) => dateTime(r.time, ctx.locale) },
          {
            head: t.request,
            cell: (r) =>
              html`<a href="/dashboard/requests/${encodeURIComponent(r.requestId)}"
                ><span class="mono">${r.method} ${r.path}</span></a
              >`,
          },
          { head: t.status, cell: (r) => statusBadge(r.status) },
          { head: 'operationId', cell: (r) => r.operationId ?? '—' },
          { head: t.latency, cell: (r) => `${r.latencyMs} ms`, num: true },
          { head: t.errorCode, cell: (r) => r.errorCode ?? '' },
        ],
        requestLogs,
        t,
      )}
      <nav class="pager" aria-label="${t.page}">
        ${cursor ? html`<a href="/dashboard/requests${queryOf(keep)}">← ${t.previous}</a>` : ''}
        ${
          pageInfo.nextCursor
            ? html`<a href="/dashboard/requests${queryOf({ ...keep, cursor: pageInfo.nextCursor })}">${t.next} →</a>`
            : ''
        }
      </nav>`,
  );
}

function bodyBlock(label: string, body: string | null | undefined, clipped: boolean, t: DashContext['t']): Html {
  if (body === null || body === undefined) return html``;
  return html`<h3>${label}${clipped ? html` <span class="muted">${t.clipped}</span>` : ''}</h3>
    <pre class="region" tabindex="0" aria-label="${label}">${body}</pre>`;
}

export async function requestPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const r = await ctx.services.requestLogs.get(ctx.principal.companyId, ctx.params.id!);
  const row = (label: string, value: Html | string | number | null | undefined) =>
    html`<dt>${label}</dt>
      <dd>${value ?? '—'}</dd>`;
  return page(
    'requests',
    `${r.method} ${r.path}`,
    html`<p><a href="/dashboard/requests">← ${t.requestLog}</a></p>
      <h1><span class="mono">${r.method} ${r.path}</span> ${statusBadge(r.status)}</h1>
      <div class="panel">
        <dl class="facts">
          ${row(t.requestId, html`<span class="mono">${r.requestId}</span>`)}
          ${row(t.createdAt, dateTime(r.time, ctx.locale))} ${row('API', r.api)} ${row(t.application, r.clientId)}
          ${row('operationId', r.operationId)}
          ${row('query', r.query ? html`<span class="mono">${r.query}</span>` : null)}
          ${row(t.latency, `${r.latencyMs} ms`)} ${row('Idempotency-Key', r.idempotencyKey)}
          ${row(t.errorCode, r.errorCode)} ${row(t.error, r.errorMessage)} ${row('IP', r.request.ip)}
          ${row('User-Agent', r.request.userAgent)} ${row('Content-Type', r.request.contentType)}
        </dl>
      </div>
      ${
        r.request.body === null && r.response.body === null
          ? html`<p class="muted">${t.onlyErrors}</p>`
          : html`${bodyBlock(t.requestBody, r.request.body, r.request.bodyClipped ?? false, t)}
            ${bodyBlock(t.responseBody, r.response.body, r.response.bodyClipped ?? false, t)}`
      }`,
  );
}
