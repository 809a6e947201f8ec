// Webhooks: the list, a webhook's deliveries (each with its attempts: when, the receiver's
// status code or error, the latency), resend, "send test event", and a delivery's page with
// each attempt inspected (what was sent, what came back).
import type { components } from '../../../generated/platform.types';
import { done, page, type Answer, type DashContext } from '../context';
import { dateTime } from '../view/format';
import { html, type Html } from '../view/html';
import { badge, flash, pager, postForm, skipOf, table } from '../view/parts';
import { answerOf, deliveriesTable } from './charge-panels';

type S = components['schemas'];
const LIMIT = 25;

export async function webhooksPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { webhooks, total } = await ctx.services.webhooks.list(ctx.principal.companyId, undefined, {
    skip,
    limit: LIMIT,
  });
  return page(
    'webhooks',
    t.webhooks,
    html`<h1>${t.webhooks}</h1>
      ${table(
        t.webhooks,
        [
          {
            head: t.name,
            cell: (w: S['Webhook']) => html`<a href="/dashboard/webhooks/${w.id}">${w.name || w.id}</a>`,
          },
          { head: t.event, cell: (w) => w.event },
          { head: t.url, cell: (w) => html`<span class="mono">${w.url}</span>` },
          { head: t.active, cell: (w) => (w.isActive ? t.yes : t.no) },
        ],
        webhooks,
        t,
      )}${pager(ctx, '/dashboard/webhooks', skip, LIMIT, total)}`,
  );
}

export async function webhookPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const webhook = await ctx.services.webhooks.get(ctx.principal, ctx.params.id!);
  const deliveries = await ctx.services.webhooks.recentDeliveries(ctx.principal, { webhookId: webhook.id }, 50);
  return page(
    'webhooks',
    webhook.name || webhook.id,
    html`<p><a href="/dashboard/webhooks">← ${t.webhooks}</a></p>
      <h1>${t.webhooks}: ${webhook.name || webhook.id}</h1>
      <div class="panel">
        <dl class="facts">
          <dt>${t.url}</dt>
          <dd class="mono">${webhook.url}</dd>
          <dt>${t.event}</dt>
          <dd>${webhook.event}</dd>
          <dt>${t.active}</dt>
          <dd>${webhook.isActive ? t.yes : t.no}</dd>
        </dl>
        <div class="actions">
          ${postForm(ctx, `/dashboard/webhooks/${webhook.id}/test`, html`<button type="submit" class="secondary">${t.sendTest}</button>`)}
        </div>
      </div>
      ${flash(ctx)}
      <h2>${t.deliveries}</h2>
      ${deliveriesTable(ctx, deliveries)}`,
  );
}

type Attempt = S['WebhookAttemptDetail'];

// The attempt's outcome in a few words: the receiver's status, or the error's class and reason.
function outcomeOf(a: Attempt | undefined): string {
  if (!a) return '—';
  const status = a.response ? `HTTP ${a.response.statusCode}` : '';
  const error = a.error && a.error.class !== 'HTTP_STATUS' ? `${a.error.class}: ${a.error.reason}` : '';
  return [status, error].filter(Boolean).join(' · ') || '—';
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

// What one attempt sent (URL, headers; the body is the delivery's) and what came back.
function inspected(ctx: DashContext, a: Attempt, n: number, options: { open: boolean }): Html {
  const { t } = ctx;
  return html`<details ${options.open ? html`open` : ''}>
    <summary>#${n} · ${dateTime(a.time, ctx.locale)} · ${outcomeOf(a)}</summary>
    <div class="grid2">
      <section aria-label="${t.sentRequest} #${n}">
        <h3>${t.sentRequest}</h3>
        ${
          a.request
            ? html`<p class="mono">POST ${a.request.url}</p>
                <pre class="region" tabindex="0" aria-label="${t.headers}">${headerLines(a.request.headers)}</pre>`
            : html`<p class="muted">—</p>`
        }
      </section>
      <section aria-label="${t.receivedAnswer} #${n}">
        <h3>${t.receivedAnswer}</h3>
        ${
          a.response
            ? html`<p>HTTP ${a.response.statusCode} · ${a.durationMs} ms</p>
                <pre class="region" tabindex="0" aria-label="${t.headers}">${headerLines(a.response.headers)}</pre>
                <h4>${t.body}${a.response.bodyTruncated ? html` <span class="muted">${t.clipped}</span>` : ''}</h4>
                <pre class="region" tabindex="0" aria-label="${t.body}">${a.response.body || '—'}</pre>`
            : html`<p>${t.noAnswer}</p>`
        }
        ${
          a.error
            ? html`<p class="error">
                ${t.error}: ${a.error.class}${a.error.code ? ` (${a.error.code})` : ''} — ${a.error.reason}
              </p>`
            : ''
        }
      </section>
    </div>
  </details>`;
}

export async function deliveryPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const companyId = ctx.principal.companyId;
  const [webhook, delivery] = await Promise.all([
    ctx.services.webhooks.get(ctx.principal, ctx.params.id!),
    ctx.services.webhooks.delivery(companyId, ctx.params.id!, ctx.params.deliveryId!),
  ]);
  const base = `/dashboard/webhooks/${encodeURIComponent(webhook.id)}/deliveries/${encodeURIComponent(delivery.id)}`;
  const attempts = delivery.attempts.map((a, i) => ({ ...a, n: i + 1 }));
  return page(
    'webhooks',
    `${t.deliveries} ${delivery.id}`,
    html`<p><a href="/dashboard/webhooks/${encodeURIComponent(webhook.id)}">← ${webhook.name || webhook.id}</a></p>
      <h1>
        ${delivery.event}
        ${badge(t, delivery.status)}${delivery.isTest ? html` <span class="badge b-neutral">${t.test}</span>` : ''}
      </h1>
      ${flash(ctx)}
      <div class="panel">
        <dl class="facts">
          <dt>id</dt>
          <dd class="mono">${delivery.id}</dd>
          <dt>${t.event}</dt>
          <dd><a href="/dashboard/events/${encodeURIComponent(delivery.eventId)}">${delivery.eventId}</a></dd>
          <dt>${t.createdAt}</dt>
          <dd>${dateTime(delivery.createdAt, ctx.locale)}</dd>
          ${
            delivery.nextAttemptAt
              ? html`<dt>${t.nextAttempt}</dt>
                  <dd>${dateTime(delivery.nextAttemptAt, ctx.locale)}</dd>`
              : ''
          }
        </dl>
        <div class="actions">${postForm(ctx, `${base}/resend`, html`<button type="submit">${t.resend}</button>`)}</div>
      </div>
      <h2>${t.attempts}</h2>
      ${table(
        t.attempts,
        [
          { head: '#', cell: (a: Attempt & { n: number }) => a.n, num: true },
          { head: t.createdAt, cell: (a) => dateTime(a.time, ctx.locale) },
          { head: t.answer, cell: (a) => outcomeOf(a) },
          { head: 'ms', cell: (a) => a.durationMs, num: true },
          { head: 'manual', cell: (a) => (a.manual ? t.yes : t.no) },
        ],
        attempts,
        t,
      )}
      <h2>${t.request} / ${t.answer}</h2>
      ${attempts.map((a) => inspected(ctx, a, a.n, { open: a.n === attempts.length }))}
      <h3>${t.body}</h3>
      <pre class="region" tabindex="0" aria-label="${t.body}">${delivery.body}</pre>`,
  );
}

export async function resendDelivery(ctx: DashContext): Promise<Answer> {
  const after = await ctx.services.webhooks.redeliver(ctx.principal.companyId, ctx.params.id!, ctx.params.deliveryId!);
  const last = after.attempts.at(-1);
  return done(ctx, `/dashboard/webhooks/${ctx.params.id}/deliveries/${after.id}`, `${ctx.t.done} ${answerOf(last)}`);
}

// A test event of the webhook's type, sent now (the service answers once the attempt is
// done): the reader lands on its delivery, with the receiver's answer.
export async function sendTestEvent(ctx: DashContext): Promise<Answer> {
  const { delivery } = await ctx.services.webhooks.test(ctx.principal.companyId, ctx.params.id!);
  const to = `/dashboard/webhooks/${encodeURIComponent(ctx.params.id!)}/deliveries/${encodeURIComponent(delivery.id)}`;
  return done(ctx, to, `${ctx.t.testSent}: ${outcomeOf(delivery.attempts.at(-1))}`);
}
