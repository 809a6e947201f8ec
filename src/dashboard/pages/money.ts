// Money pages: Pix received, refunds, payments out (with approve), Pix keys, subaccounts,
// each a page of the owning service's list.
import type { components } from '../../../generated/platform.types';
import { done, page, type Answer, type DashContext } from '../context';
import { dateTime, money } from '../view/format';
import { html } from '../view/html';
import { badge, flash, pager, postForm, skipOf, table } from '../view/parts';
import { receiptUrl } from './charge-panels';

type S = components['schemas'];
const LIMIT = 25;

export async function pixPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { transactions, total } = await ctx.services.transactions.list(
    ctx.principal,
    { type: 'PAYMENT' },
    { skip, limit: LIMIT },
  );
  return page(
    'pix',
    t.pix,
    html`<h1>${t.pix}</h1>
      ${table(
        t.pix,
        [
          { head: t.endToEndId, cell: (x: S['Transaction']) => html`<span class="mono">${x.endToEndId ?? '—'}</span>` },
          { head: t.value, cell: (x) => money(x.value), num: true },
          { head: t.payer, cell: (x) => x.payer?.name ?? '—' },
          {
            head: t.charge,
            cell: (x) =>
              x.charge?.correlationID
                ? html`<a href="/dashboard/charges/${encodeURIComponent(x.charge.correlationID)}"
                    >${x.charge.correlationID}</a
                  >`
                : '—',
          },
          { head: t.createdAt, cell: (x) => dateTime(x.time, ctx.locale) },
          {
            head: t.receipt,
            cell: (x) =>
              x.endToEndId
                ? html`<a href="${receiptUrl('pix-in', x.endToEndId)}" aria-label="${t.receipt} ${x.endToEndId}"
                    >PDF</a
                  >`
                : '—',
          },
        ],
        transactions,
        t,
      )}${pager(ctx, '/dashboard/pix', skip, LIMIT, total)}`,
  );
}

export async function refundsPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { refunds, total } = await ctx.services.pixin.listRefunds(ctx.principal, {}, { skip, limit: LIMIT });
  return page(
    'refunds',
    t.refunds,
    html`<h1>${t.refunds}</h1>
      ${table(
        t.refunds,
        [
          { head: 'correlationID', cell: (r: S['Refund']) => r.correlationID },
          { head: t.status, cell: (r) => badge(t, r.status) },
          { head: t.value, cell: (r) => money(r.value), num: true },
          { head: 'Pix', cell: (r) => html`<span class="mono">${r.transactionEndToEndId}</span>` },
          { head: t.createdAt, cell: (r) => dateTime(r.time, ctx.locale) },
        ],
        refunds,
        t,
      )}${pager(ctx, '/dashboard/refunds', skip, LIMIT, total)}`,
  );
}

type PaymentRow = Awaited<ReturnType<DashContext['services']['payments']['list']>>['payments'][number];

export async function paymentsPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { payments, total } = await ctx.services.payments.list(ctx.principal, { skip, limit: LIMIT });
  return page(
    'payments',
    t.payments,
    html`<h1>${t.payments}</h1>
      ${flash(ctx)}${table(
        t.payments,
        [
          { head: 'correlationID', cell: (p: PaymentRow) => p.payment.correlationID },
          { head: t.status, cell: (p) => badge(t, p.payment.status) },
          { head: t.value, cell: (p) => money(p.payment.value), num: true },
          { head: t.destination, cell: (p) => p.payment.destinationAlias ?? p.payment.type },
          {
            head: '',
            cell: (p) =>
              p.payment.status === 'CREATED'
                ? postForm(
                    ctx,
                    `/dashboard/payments/${encodeURIComponent(p.payment.correlationID)}/approve`,
                    html`<button type="submit">${t.approve}</button>`,
                    { label: `${t.approve} ${p.payment.correlationID}` },
                  )
                : '',
          },
        ],
        payments,
        t,
      )}${pager(ctx, '/dashboard/payments', skip, LIMIT, total)}`,
  );
}

export async function approvePayment(ctx: DashContext): Promise<Answer> {
  const id = ctx.params.id!;
  // the same lookup as the API: another company's payment is not found
  await ctx.services.payments.get(ctx.principal, id);
  await ctx.services.payments.approve(ctx.principal, id);
  return done(ctx, '/dashboard/payments', ctx.t.done);
}

export async function keysPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { pixKeys, total } = await ctx.services.pixKeys.listKeys(ctx.principal, { skip, limit: LIMIT });
  return page(
    'keys',
    t.keys,
    html`<h1>${t.keys}</h1>
      ${table(
        t.keys,
        [
          { head: t.key, cell: (k: S['PixKey']) => html`<span class="mono">${k.key}</span>` },
          { head: t.type, cell: (k) => k.type },
          { head: t.default, cell: (k) => (k.isDefault ? t.yes : t.no) },
          { head: t.createdAt, cell: (k) => dateTime(k.createdAt ?? null, ctx.locale) },
        ],
        pixKeys,
        t,
      )}${pager(ctx, '/dashboard/keys', skip, LIMIT, total)}`,
  );
}

export async function subaccountsPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { subAccounts, total } = await ctx.services.subaccounts.list(ctx.principal, { skip, limit: LIMIT });
  return page(
    'subaccounts',
    t.subaccounts,
    html`<h1>${t.subaccounts}</h1>
      ${table(
        t.subaccounts,
        [
          { head: t.name, cell: (s: S['SubAccount']) => s.name },
          { head: t.key, cell: (s) => html`<span class="mono">${s.pixKey}</span>` },
          { head: t.balance, cell: (s) => money(s.balance), num: true },
        ],
        subAccounts,
        t,
      )}${pager(ctx, '/dashboard/subaccounts', skip, LIMIT, total)}`,
  );
}
