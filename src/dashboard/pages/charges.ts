// Charges: the list (newest first, by status, period and search, paged by cursor) and a
// charge's page (QR code, payment link, amounts, timeline, its Pix and refunds, its webhook
// deliveries; in the sandbox, "simulate payment"), whose panels its script refreshes from
// /dashboard/charges/{id}/live. Everything goes through the charges, pixin and webhooks
// services, as the API does, so another company's charge is not found.
import type { components } from '../../../generated/platform.types';
import { errors } from '../../errors/errors';
import { done, one, page, type Answer, type DashContext } from '../context';
import { civilDate, dateTime, fromBrasiliaLocal, money } from '../view/format';
import { html, queryOf, type Html } from '../view/html';
import { badge, flash, postForm, table } from '../view/parts';
import { chargePanels, type ChargeFacts } from './charge-panels';

type Charge = components['schemas']['Charge'];
const STATUSES = ['ACTIVE', 'COMPLETED', 'EXPIRED'] as const;
const PAGE_SIZE = 25;

function filtersOf(ctx: DashContext) {
  const status = STATUSES.find((s) => s === ctx.query.status);
  const fromDay = ctx.query.from && fromBrasiliaLocal(ctx.query.from) ? ctx.query.from : undefined;
  const toDay = ctx.query.to && fromBrasiliaLocal(ctx.query.to) ? ctx.query.to : undefined;
  return { status, fromDay, toDay, search: one(ctx.query.q, 140) };
}

export async function chargesPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const f = filtersOf(ctx);
  const to = f.toDay ? fromBrasiliaLocal(f.toDay) : undefined;
  const { charges, next } = await ctx.services.platformCharges.listNewestFirst(
    ctx.principal,
    {
      ...(f.status ? { status: f.status } : {}),
      ...(f.fromDay ? { from: fromBrasiliaLocal(f.fromDay)! } : {}),
      ...(to ? { to: new Date(to.getTime() + 86_400_000 - 1) } : {}),
      ...(f.search ? { search: f.search } : {}),
    },
    { ...(ctx.query.before ? { before: ctx.query.before } : {}), limit: PAGE_SIZE },
  );
  const keep = { status: f.status, from: f.fromDay, to: f.toDay, q: f.search };
  const rows = table(
    t.charges,
    [
      {
        head: 'correlationID',
        cell: (c: Charge) =>
          html`<a href="/dashboard/charges/${encodeURIComponent(c.correlationID)}">${c.correlationID}</a>`,
      },
      { head: t.status, cell: (c) => badge(t, c.status) },
      { head: t.value, cell: (c) => money(c.value), num: true },
      { head: t.customer, cell: (c) => c.customer?.name ?? '—' },
      { head: t.created, cell: (c) => dateTime(c.createdAt, ctx.locale) },
      { head: 'txid', cell: (c) => html`<span class="mono">${c.transactionID}</span>` },
    ],
    charges,
    t,
  );
  return page(
    'charges',
    t.charges,
    html`<h1>${t.charges}</h1>
      <form class="filters" method="get" action="/dashboard/charges" role="search">
        <label
          >${t.status}<select name="status">
            <option value="">${t.allStatuses}</option>
            ${STATUSES.map(
              (s) => html`<option value="${s}" ${f.status === s ? html` selected` : ''}>${t.statusNames[s]}</option>`,
            )}
          </select></label
        >
        <label>${t.from}<input type="date" name="from" value="${f.fromDay ?? ''}" /></label>
        <label>${t.to}<input type="date" name="to" value="${f.toDay ?? ''}" /></label>
        <label
          >${t.search}<input type="search" name="q" value="${f.search ?? ''}" placeholder="${t.searchHint}"
        /></label>
        <button type="submit">${t.filter}</button>
      </form>
      ${rows}
      <nav class="pager" aria-label="${t.page}">
        ${ctx.query.before ? html`<a href="/dashboard/charges${queryOf(keep)}">← ${t.previous}</a>` : ''}
        ${next ? html`<a href="/dashboard/charges${queryOf({ ...keep, before: next })}">${t.next} →</a>` : ''}
      </nav>`,
  );
}

// What the charge page shows, read in three statements: the charge, its Pix with their
// refunds, its events (and those of its Pix: they carry the charge's correlationID, a Pix
// API callback its txid) with their webhook deliveries.
async function factsOf(ctx: DashContext): Promise<ChargeFacts> {
  const id = ctx.params.id!;
  const charge = await ctx.services.platformCharges.get(ctx.principal, id);
  const [received, events] = await Promise.all([
    ctx.services.pixin.receivedOfCharge(ctx.principal, charge.transactionID),
    ctx.services.events.ofObject(
      ctx.principal.companyId,
      { objectIds: [charge.globalID], correlationIds: [charge.correlationID, charge.transactionID] },
      50,
    ),
  ]);
  return { charge, received, events };
}

function amounts(ctx: DashContext, c: Charge): Html {
  const { t } = ctx;
  const row = (label: string, value: Html | string) =>
    html`<dt>${label}</dt>
      <dd>${value}</dd>`;
  const settings = (s: { value?: number; modalidade?: number } | undefined) =>
    s?.value !== undefined ? `${String(s.value).replace('.', ',')}${s.modalidade === 1 ? '' : ' %'}` : '—';
  return html`<dl class="facts">
    ${row(t.original, money(c.value))} ${c.dueDate ? row(t.dueDate, civilDate(c.dueDate.slice(0, 10), ctx.locale)) : ''}
    ${c.discount !== undefined ? row(t.discount, money(c.discount)) : ''}
    ${c.fines ? row(t.fine, settings(c.fines as { value?: number; modalidade?: number })) : ''}
    ${c.interests ? row(t.interest, settings(c.interests as { value?: number; modalidade?: number })) : ''}
    ${c.valueToPay !== undefined ? row(`${t.total}`, html`<strong>${money(c.valueToPay)}</strong>`) : ''}
    ${row(t.expiresAt, dateTime(c.expiresDate, ctx.locale))}
    ${c.paidAt ? row(t.paidAt, dateTime(c.paidAt, ctx.locale)) : ''}
  </dl>`;
}

export async function chargePage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const facts = await factsOf(ctx);
  const c = facts.charge;
  const panels = chargePanels(ctx, facts);
  const live = `/dashboard/charges/${encodeURIComponent(c.correlationID)}/live`;
  return page(
    'charges',
    `${t.charge} ${c.correlationID}`,
    html`<p><a href="/dashboard/charges">← ${t.charges}</a></p>
      <h1>
        ${t.charge} <span class="mono">${c.correlationID}</span> <span data-panel="status">${panels.status}</span>
      </h1>
      <div data-live="${live}" hidden></div>
      ${flash(ctx)}
      <div class="grid2">
        <section class="panel" aria-labelledby="qr-h">
          <h2 id="qr-h">${t.qrCode}</h2>
          <img
            class="qr"
            src="/openpix/charge/brcode/image/${c.paymentLinkID}.png?size=600"
            alt="${t.qrCode} ${c.correlationID}"
            width="240"
            height="240"
          />
          <p><a href="${new URL(c.paymentLinkUrl).pathname}">${t.paymentLink}</a></p>
          <h3>${t.brCode}</h3>
          <p class="mono" id="brcode">${c.brCode}</p>
          <div data-panel="actions">${panels.actions}</div>
        </section>
        <section class="panel" aria-labelledby="amounts-h">
          <h2 id="amounts-h">${t.amounts}</h2>
          ${amounts(ctx, c)}
          <p class="muted">txid <span class="mono">${c.transactionID}</span></p>
        </section>
      </div>
      <section aria-labelledby="tl-h">
        <h2 id="tl-h">${t.timeline}</h2>
        <div class="panel" data-panel="timeline">${panels.timeline}</div>
      </section>
      <section aria-labelledby="pix-h">
        <h2 id="pix-h">${t.pix} · ${t.refunds}</h2>
        <div data-panel="pix">${panels.pix}</div>
      </section>
      <section aria-labelledby="dl-h">
        <h2 id="dl-h">${t.deliveries}</h2>
        <div data-panel="deliveries">${panels.deliveries}</div>
      </section>`,
  );
}

// The panels again, as HTML fragments, for the page's script.
export async function chargeLive(ctx: DashContext): Promise<Answer> {
  const facts = await factsOf(ctx);
  const panels = chargePanels(ctx, facts);
  return {
    kind: 'json',
    body: {
      status: facts.charge.status,
      panels: Object.fromEntries(Object.entries(panels).map(([k, v]) => [k, v.text])),
    },
  };
}

export async function simulateChargePayment(ctx: DashContext): Promise<Answer> {
  const charge = await ctx.services.platformCharges.get(ctx.principal, ctx.params.id!);
  if (!ctx.sandbox) throw errors.notFound('Not found');
  await ctx.services.pixin.sandbox.pay({
    brCode: charge.brCode,
    payer: { name: 'Pagador do sandbox', taxID: '529.982.247-25' },
  });
  return done(ctx, `/dashboard/charges/${encodeURIComponent(charge.correlationID)}`, ctx.t.done);
}

// "12,34" or "12.34" (reais) -> 1234 cents; undefined when it is not an amount.
export function centsOf(text: string | undefined): number | undefined {
  const m = text ? /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text) : null;
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

export async function refundCharge(ctx: DashContext): Promise<Answer> {
  const charge = await ctx.services.platformCharges.get(ctx.principal, ctx.params.id!);
  const value = centsOf(ctx.form.value);
  if (value === undefined || value < 1) throw errors.badRequest(`${ctx.t.refundValue}: ?`);
  await ctx.services.pixin.createChargeRefund(ctx.principal, charge.correlationID, {
    correlationID: `dashboard-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    value,
    ...(one(ctx.form.comment) ? { comment: one(ctx.form.comment)! } : {}),
  });
  return done(ctx, `/dashboard/charges/${encodeURIComponent(charge.correlationID)}`, ctx.t.done);
}

export { postForm };
