// Webhooks: the list, a webhook's deliveries (each with its attempts: when, the receiver's
// status code or error, the latency), resend, and a delivery's page. The inspected request
// and answer of each attempt and "send test event" wait for the webhooks branch's services
// (see routes.ts).
import type { components } from '../../../generated/platform.types';
import { errors } from '../../errors/errors';
import { done, page, type Answer, type DashContext } from '../context';
import { dateTime } from '../view/format';
import { html } from '../view/html';
import { badge, flash, notYet, pager, postForm, skipOf, table } from '../view/parts';
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

async function deliveryOf(ctx: DashContext) {
  const webhook = await ctx.services.webhooks.get(ctx.principal, ctx.params.id!);
  const deliveries = await ctx.services.webhooks.recentDeliveries(ctx.principal, { webhookId: webhook.id }, 200);
  const delivery = deliveries.find((d) => d.id === ctx.params.deliveryId);
  if (!delivery) throw errors.missing('delivery');
  return { webhook, delivery };
}

export async function deliveryPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const { webhook, delivery } = await deliveryOf(ctx);
  const base = `/dashboard/webhooks/${webhook.id}/deliveries/${delivery.id}`;
  return page(
    'webhooks',
    `${t.deliveries} ${delivery.id}`,
    html`<p><a href="/dashboard/webhooks/${webhook.id}">← ${webhook.name || webhook.id}</a></p>
      <h1>${delivery.event} ${badge(t, delivery.status)}</h1>
      ${flash(ctx)}
      <div class="actions">${postForm(ctx, `${base}/resend`, html`<button type="submit">${t.resend}</button>`)}</div>
      <h2>${t.attempts}</h2>
      ${table(
        t.attempts,
        [
          { head: '#', cell: (a: S['WebhookDeliveryAttempt'] & { n: number }) => a.n, num: true },
          { head: t.createdAt, cell: (a) => dateTime(a.time, ctx.locale) },
          { head: t.answer, cell: (a) => answerOf(a) },
          { head: 'ms', cell: (a) => a.latencyMs ?? '—', num: true },
        ],
        delivery.attempts.map((a, i) => ({ ...a, n: i + 1 })),
        t,
      )}
      <h2>${t.request} / ${t.answer}</h2>
      ${notYet(t, 'webhooks.delivery')}`,
  );
}

export async function resendDelivery(ctx: DashContext): Promise<Answer> {
  const after = await ctx.services.webhooks.redeliver(ctx.principal.companyId, ctx.params.id!, ctx.params.deliveryId!);
  const last = after.attempts.at(-1);
  return done(ctx, `/dashboard/webhooks/${ctx.params.id}/deliveries/${after.id}`, `${ctx.t.done} ${answerOf(last)}`);
}

// Waits for the webhooks branch's test-event service; the webhook is still checked first.
export async function sendTestEvent(ctx: DashContext): Promise<Answer> {
  await ctx.services.webhooks.get(ctx.principal, ctx.params.id!);
  return done(ctx, `/dashboard/webhooks/${ctx.params.id}`, `${ctx.t.notYet} (webhooks.sendTest)`);
}
