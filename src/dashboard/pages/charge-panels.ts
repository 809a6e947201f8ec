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
type Event = components['schemas']['Event'];
type EventDelivery = components['schemas']['EventDelivery'];

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
  // The events about the charge and its Pix, newest first, each with its deliveries.
  events: Event[];
}

interface TimelineItem {
  at: string;
  text: string;
  eventId?: string;
}

// What an event of the charge says in its timeline (undefined: the type's name).
function eventText(ctx: DashContext, e: Event): string {
  const { t } = ctx;
  const p = e.payload as { pix?: { value?: number; payer?: { name?: string } } };
  switch (e.type) {
    case 'OPENPIX:CHARGE_CREATED':
      return t.tlCreated;
    case 'OPENPIX:CHARGE_COMPLETED':
      return t.tlCompleted;
    case 'OPENPIX:CHARGE_EXPIRED':
      return t.tlExpired;
    case 'PIXGATE:CHARGE_DELETED':
      return t.tlRemoved;
    case 'PIX_API:PIX':
      return t.tlPixCallback;
    case 'OPENPIX:TRANSACTION_RECEIVED':
      return `${t.tlPaid}: ${money(p.pix?.value)}${p.pix?.payer?.name ? ` (${p.pix.payer.name})` : ''}`;
    default:
      return e.type;
  }
}

// What happened to the charge, oldest first: its events (each opening its page) and its
// refunds; what has no event (a charge older than the events log) from the charge itself.
function timeline(ctx: DashContext, f: ChargeFacts): Html {
  const { t } = ctx;
  const items: TimelineItem[] = f.events.map((e) => ({ at: e.createdAt, text: eventText(ctx, e), eventId: e.id }));
  const has = (type: string) => f.events.some((e) => e.type === type);
  if (!has('OPENPIX:CHARGE_CREATED')) items.push({ at: f.charge.createdAt, text: t.tlCreated });
  if (!has('OPENPIX:TRANSACTION_RECEIVED'))
    for (const pix of f.received)
      items.push({ at: pix.settledAt, text: `${t.tlPaid}: ${money(pix.value)} (${pix.payerName})` });
  for (const r of f.received.flatMap((pix) => pix.refunds))
    items.push({ at: r.time, text: `${t.tlRefund}: ${money(r.value)} · ${t.statusNames[r.status] ?? r.status}` });
  if (f.charge.status === 'EXPIRED' && !has('OPENPIX:CHARGE_EXPIRED'))
    items.push({ at: f.charge.expiresDate, text: t.tlExpired });
  items.sort((a, b) => a.at.localeCompare(b.at));
  return html`<ol class="timeline">
    ${items.map(
      (i) =>
        html`<li>
          <time datetime="${i.at}">${dateTime(i.at, ctx.locale)}</time> —
          ${i.eventId ? html`<a href="/dashboard/events/${encodeURIComponent(i.eventId)}">${i.text}</a>` : i.text}
        </li>`,
    )}
  </ol>`;
}

function pixTable(ctx: DashContext, f: ChargeFacts): Html {
  const { t } = ctx;
  const rows = f.received.flatMap((p) => [
    {
      kind: t.pix,
      id: p.endToEndId,
      value: p.value,
      at: p.settledAt,
      who: p.payerName,
      status: 'COMPLETED',
      receipt: receiptUrl('pix-in', p.endToEndId),
    },
    ...p.refunds.map((r) => ({
      kind: t.tlRefund,
      id: r.endToEndId ?? r.correlationID,
      value: r.value,
      at: r.time,
      who: '',
      status: r.status as string,
      receipt: r.endToEndId && r.status === 'CONFIRMED' ? receiptUrl('pix-refund', r.endToEndId) : undefined,
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
      {
        head: t.receipt,
        cell: (r) => (r.receipt ? html`<a href="${r.receipt}" aria-label="${t.receipt} ${r.id}">PDF</a>` : '—'),
      },
    ],
    rows,
    t,
  );
}

// The dashboard's link to a Pix receipt (the receipts service, as GET /api/v1/receipt does).
export function receiptUrl(type: 'pix-in' | 'pix-out' | 'pix-refund', endToEndId: string): string {
  return `/dashboard/receipts/${type}/${encodeURIComponent(endToEndId)}`;
}

// The deliveries of the charge's events to the company's webhooks, newest first.
function eventDeliveriesTable(ctx: DashContext, events: Event[]): Html {
  const { t } = ctx;
  const rows = events.flatMap((e) =>
    (e.deliveries ?? []).filter((d) => d.webhookKind === 'PLATFORM').map((d) => ({ event: e, d })),
  );
  rows.sort((a, b) => b.d.createdAt.localeCompare(a.d.createdAt));
  return table(
    t.deliveries,
    [
      {
        head: t.event,
        cell: (r: { event: Event; d: EventDelivery }) =>
          html`<a
            href="/dashboard/webhooks/${encodeURIComponent(r.d.webhookId)}/deliveries/${encodeURIComponent(r.d.id)}"
            >${r.event.type}</a
          >`,
      },
      { head: t.status, cell: (r) => badge(t, r.d.status) },
      { head: t.attempts, cell: (r) => r.d.attempts, num: true },
      {
        head: t.answer,
        cell: (r) =>
          r.d.lastStatusCode ? `HTTP ${r.d.lastStatusCode}` : r.d.lastErrorClass ? r.d.lastErrorClass : '—',
      },
      { head: t.createdAt, cell: (r) => dateTime(r.d.createdAt, ctx.locale) },
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
    deliveries: eventDeliveriesTable(ctx, f.events),
  };
}
