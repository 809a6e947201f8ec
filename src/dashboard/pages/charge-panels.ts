// The parts of a charge's page that change (status, actions, timeline, Pix and refunds,
// deliveries), rendered the same on the page and for its script's refresh.
import type { components } from '../../../generated/platform.types';
import type { DashContext } from '../context';
import { dateTime, money } from '../view/format';
import { html, type Html } from '../view/html';
import { badge, postForm, table } from '../view/parts';

type Charge = components['schemas']['Charge'];
type Delivery = components['schemas']['WebhookDelivery'];
type Refund = components['schemas']['Refund'];

export interface ReceivedPix {
  endToEndId: string;
  value: number;
  payerName: string;
  payerTaxId: string;
  infoPagador: string | null;
  settledAt: string;
  refunds: Refund[];
}

export interface ChargeFacts {
  charge: Charge;
  received: ReceivedPix[];
  deliveries: Delivery[];
}

// What happened to the charge, oldest first, from the charge, its Pix and its refunds.
// (The events timeline replaces it once the events service is here: see routes.ts.)
function timeline(ctx: DashContext, f: ChargeFacts): Html {
  const { t } = ctx;
  const items: { at: string; text: string }[] = [{ at: f.charge.createdAt, text: t.tlCreated }];
  for (const pix of f.received) {
    items.push({ at: pix.settledAt, text: `${t.tlPaid}: ${money(pix.value)} (${pix.payerName})` });
    for (const r of pix.refunds)
      items.push({ at: r.time, text: `${t.tlRefund}: ${money(r.value)} · ${t.statusNames[r.status] ?? r.status}` });
  }
  if (f.charge.status === 'EXPIRED') items.push({ at: f.charge.expiresDate, text: t.tlExpired });
  items.sort((a, b) => a.at.localeCompare(b.at));
  return html`<ol class="timeline">
    ${items.map((i) => html`<li><time datetime="${i.at}">${dateTime(i.at, ctx.locale)}</time> — ${i.text}</li>`)}
  </ol>`;
}

function pixTable(ctx: DashContext, f: ChargeFacts): Html {
  const { t } = ctx;
  const rows = f.received.flatMap((p) => [
    { kind: t.pix, id: p.endToEndId, value: p.value, at: p.settledAt, who: p.payerName, status: 'COMPLETED' },
    ...p.refunds.map((r) => ({
      kind: t.tlRefund,
      id: r.endToEndId ?? r.correlationID,
      value: r.value,
      at: r.time,
      who: '',
      status: r.status as string,
    })),
  ]);
  return table(
    `${t.pix} · ${t.refunds}`,
    [
      { head: t.type, cell: (r: (typeof rows)[number]) => r.kind },
      { head: t.endToEndId, cell: (r) => html`<span class="mono">${r.id}</span>` },
      { head: t.value, cell: (r) => money(r.value), num: true },
      { head: t.status, cell: (r) => badge(t, r.status) },
      { head: t.payer, cell: (r) => r.who || '—' },
      { head: t.createdAt, cell: (r) => dateTime(r.at, ctx.locale) },
    ],
    rows,
    t,
  );
}

export function deliveriesTable(ctx: DashContext, deliveries: Delivery[]): Html {
  const { t } = ctx;
  return table(
    t.deliveries,
    [
      {
        head: t.event,
        cell: (d: Delivery) =>
          html`<a href="/dashboard/webhooks/${d.webhookId ?? ''}/deliveries/${d.id}">${d.event}</a>`,
      },
      { head: t.status, cell: (d) => badge(t, d.status) },
      { head: t.attempts, cell: (d) => d.attempts.length, num: true },
      { head: t.answer, cell: (d) => answerOf(d.attempts.at(-1)) },
      { head: t.createdAt, cell: (d) => dateTime(d.createdAt ?? null, ctx.locale) },
    ],
    deliveries,
    t,
  );
}

export function answerOf(a: Delivery['attempts'][number] | undefined): string {
  if (!a) return '—';
  return a.statusCode ? `HTTP ${a.statusCode}${a.error ? ` · ${a.error}` : ''}` : (a.error ?? '—');
}

function actions(ctx: DashContext, f: ChargeFacts): Html {
  const { t } = ctx;
  const base = `/dashboard/charges/${encodeURIComponent(f.charge.correlationID)}`;
  const paid = f.received.reduce((sum, p) => sum + p.value, 0);
  const refunded = f.received
    .flatMap((p) => p.refunds)
    .reduce((s, r) => s + (r.status === 'REJECTED' ? 0 : r.value), 0);
  const left = paid - refunded;
  return html`<div class="actions">
    ${ctx.sandbox && f.charge.status === 'ACTIVE' ? postForm(ctx, `${base}/simulate`, html`<button type="submit">${t.simulate}</button>`, { async: true }) : ''}
    ${
      f.charge.status === 'COMPLETED' && left > 0
        ? postForm(
            ctx,
            `${base}/refund`,
            html`<label
                >${t.refundValue}<input
                  name="value"
                  inputmode="decimal"
                  size="8"
                  value="${(left / 100).toFixed(2).replace('.', ',')}"
              /></label>
              <button type="submit" class="secondary">${t.refund}</button>`,
            { async: true, label: t.refund },
          )
        : ''
    }
  </div>`;
}

export function chargePanels(
  ctx: DashContext,
  f: ChargeFacts,
): Record<'status' | 'actions' | 'timeline' | 'pix' | 'deliveries', Html> {
  return {
    status: badge(ctx.t, f.charge.status),
    actions: actions(ctx, f),
    timeline: timeline(ctx, f),
    pix: pixTable(ctx, f),
    deliveries: deliveriesTable(ctx, f.deliveries),
  };
}
