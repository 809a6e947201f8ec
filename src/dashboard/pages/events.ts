// Events: the company's events, newest first, filtered by type, object (its id or its
// correlationID) and period (Brasília days), paged by the service's cursor; each opens its
// page (its object, the body its webhooks carry, its deliveries). Read through the events
// service with the signed-in company, as GET /api/v1/events does.
import type { components } from '../../../generated/platform.types';
import { EVENT_TYPES } from '../../events/events.service';
import { one, page, type Answer, type DashContext } from '../context';
import { dateTime, fromBrasiliaLocal } from '../view/format';
import { html, queryOf, type Html } from '../view/html';
import { badge, table } from '../view/parts';

type S = components['schemas'];
const PAGE_SIZE = 25;

function filtersOf(ctx: DashContext) {
  const type = EVENT_TYPES.find((t) => t === ctx.query.type);
  const day = (v: string | undefined) => (v && fromBrasiliaLocal(v) ? v : undefined);
  return {
    type,
    objectId: one(ctx.query.objectId, 255),
    correlationID: one(ctx.query.correlationID, 255),
    from: day(ctx.query.from),
    to: day(ctx.query.to),
  };
}

// A Brasília day's start, and the next day's start (the end is exclusive), as RFC 3339.
function periodOf(f: { from?: string | undefined; to?: string | undefined }) {
  const to = f.to ? fromBrasiliaLocal(f.to) : undefined;
  return {
    ...(f.from ? { start: fromBrasiliaLocal(f.from)!.toISOString() } : {}),
    ...(to ? { end: new Date(to.getTime() + 86_400_000).toISOString() } : {}),
  };
}

// The link to what an event is about, when the dashboard has a page for it.
export function objectLink(object: S['Event']['object']): Html | string {
  if (!object) return '—';
  const label = `${object.type} ${object.correlationID ?? object.id ?? ''}`.trim();
  if (object.type === 'charge' && object.correlationID)
    return html`<a href="/dashboard/charges/${encodeURIComponent(object.correlationID)}">${label}</a>`;
  if (object.type === 'webhook' && object.id)
    return html`<a href="/dashboard/webhooks/${encodeURIComponent(object.id)}">${label}</a>`;
  return label;
}

export function eventsTable(ctx: DashContext, events: S['Event'][]): Html {
  const { t } = ctx;
  return table(
    t.events,
    [
      {
        head: t.event,
        cell: (e: S['Event']) =>
          html`<a href="/dashboard/events/${encodeURIComponent(e.id)}">${e.type}</a>${
              e.isTest ? html` <span class="badge b-neutral">${t.test}</span>` : ''
            }`,
      },
      { head: t.object, cell: (e) => objectLink(e.object) },
      { head: t.createdAt, cell: (e) => dateTime(e.createdAt, ctx.locale) },
    ],
    events,
    t,
  );
}

export async function eventsPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const f = filtersOf(ctx);
  const cursor = one(ctx.query.cursor, 500);
  const { events, nextCursor } = await ctx.services.events.list(ctx.principal.companyId, {
    ...(f.type ? { types: [f.type] } : {}),
    ...(f.objectId ? { objectId: f.objectId } : {}),
    ...(f.correlationID ? { correlationId: f.correlationID } : {}),
    ...periodOf(f),
    ...(cursor ? { cursor } : {}),
    limit: PAGE_SIZE,
  });
  const keep = { ...f };
  return page(
    'events',
    t.events,
    html`<h1>${t.events}</h1>
      <form class="filters" method="get" action="/dashboard/events" role="search">
        <label
          >${t.type}<select name="type">
            <option value="">${t.allTypes}</option>
            ${EVENT_TYPES.map((x) => html`<option value="${x}" ${f.type === x ? html` selected` : ''}>${x}</option>`)}
          </select></label
        >
        <label>${t.object} (id)<input name="objectId" value="${f.objectId ?? ''}" /></label>
        <label>correlationID<input name="correlationID" value="${f.correlationID ?? ''}" /></label>
        <label>${t.from}<input type="date" name="from" value="${f.from ?? ''}" /></label>
        <label>${t.to}<input type="date" name="to" value="${f.to ?? ''}" /></label>
        <button type="submit">${t.filter}</button>
      </form>
      ${eventsTable(ctx, events)}
      <nav class="pager" aria-label="${t.page}">
        ${cursor ? html`<a href="/dashboard/events${queryOf(keep)}">← ${t.previous}</a>` : ''}
        ${nextCursor ? html`<a href="/dashboard/events${queryOf({ ...keep, cursor: nextCursor })}">${t.next} →</a>` : ''}
      </nav>`,
  );
}

export async function eventPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const e = await ctx.services.events.get(ctx.principal.companyId, ctx.params.id!);
  const deliveries = e.deliveries ?? [];
  return page(
    'events',
    `${t.event} ${e.type}`,
    html`<p><a href="/dashboard/events">← ${t.events}</a></p>
      <h1>${e.type}${e.isTest ? html` <span class="badge b-neutral">${t.test}</span>` : ''}</h1>
      <div class="panel">
        <dl class="facts">
          <dt>id</dt>
          <dd class="mono">${e.id}</dd>
          <dt>${t.createdAt}</dt>
          <dd>${dateTime(e.createdAt, ctx.locale)}</dd>
          <dt>${t.object}</dt>
          <dd>${objectLink(e.object)}</dd>
        </dl>
      </div>
      <h2>${t.deliveries}</h2>
      ${table(
        t.deliveries,
        [
          {
            head: 'id',
            cell: (d: S['EventDelivery']) =>
              d.webhookKind === 'PLATFORM'
                ? html`<a
                    href="/dashboard/webhooks/${encodeURIComponent(d.webhookId)}/deliveries/${encodeURIComponent(d.id)}"
                    >${d.id}</a
                  >`
                : html`<span class="mono">${d.id}</span> (${d.webhookKind})`,
          },
          { head: t.status, cell: (d) => badge(t, d.status) },
          { head: t.attempts, cell: (d) => d.attempts, num: true },
          { head: t.answer, cell: (d) => (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastErrorClass ?? '—')) },
          { head: t.createdAt, cell: (d) => dateTime(d.createdAt, ctx.locale) },
        ],
        deliveries,
        t,
      )}
      <h2>${t.payload}</h2>
      <pre class="region" tabindex="0">${JSON.stringify(e.payload, null, 2)}</pre>`,
  );
}
