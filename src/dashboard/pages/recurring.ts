// Subscriptions (with their installments: the charge or cobr of each) and recurrences (Pix
// Automático's rec, with their cobr), through the subscriptions and recurrences services.
import type { components } from '../../../generated/platform.types';
import type { components as pix } from '../../../generated/pix.types';
import { page, type Answer, type DashContext } from '../context';
import { civilDate, dateTime, money } from '../view/format';
import { html } from '../view/html';
import { badge, pager, skipOf, table } from '../view/parts';

type S = components['schemas'];
const LIMIT = 25;

export async function subscriptionsPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const skip = skipOf(ctx);
  const { subscriptions, pageInfo } = await ctx.services.subscriptions.list(ctx.principal, { skip, limit: LIMIT });
  return page(
    'subscriptions',
    t.subscriptions,
    html`<h1>${t.subscriptions}</h1>
      ${table(
        t.subscriptions,
        [
          {
            head: t.name,
            cell: (s: S['Subscription']) =>
              html`<a href="/dashboard/subscriptions/${encodeURIComponent(s.globalID ?? '')}"
                >${s.name || s.correlationID || s.globalID}</a
              >`,
          },
          { head: t.status, cell: (s) => badge(t, s.status) },
          { head: t.value, cell: (s) => money(s.value), num: true },
          { head: t.frequency, cell: (s) => s.frequency ?? '—' },
          { head: t.customer, cell: (s) => s.customer?.name ?? '—' },
          { head: t.recurrence, cell: (s) => s.pixRecurring?.recurrencyId ?? '—' },
        ],
        subscriptions,
        t,
      )}${pager(ctx, '/dashboard/subscriptions', skip, LIMIT, pageInfo.totalCount)}`,
  );
}

export async function subscriptionPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const id = ctx.params.id!;
  const { installments } = await ctx.services.installments.list(ctx.principal, id, { skip: 0, limit: 50 });
  return page(
    'subscriptions',
    `${t.subscriptions} ${id}`,
    html`<p><a href="/dashboard/subscriptions">← ${t.subscriptions}</a></p>
      <h1>${t.subscriptions} <span class="mono">${id}</span></h1>
      ${table(
        t.subscriptions,
        [
          { head: '#', cell: (i: S['Installment']) => i.installmentNumber, num: true },
          { head: t.status, cell: (i) => badge(t, i.status) },
          { head: t.value, cell: (i) => money(i.value), num: true },
          { head: t.dueDate, cell: (i) => civilDate(i.dateGenerateCharge.slice(0, 10), ctx.locale) },
          {
            head: t.charge,
            cell: (i) =>
              i.correlationID
                ? html`<a href="/dashboard/charges/${encodeURIComponent(i.correlationID)}">${i.correlationID}</a>`
                : '—',
          },
          {
            head: 'cobr',
            cell: (i) => (i.cobr ? html`<span class="mono">${JSON.stringify(i.cobr).slice(0, 80)}</span>` : '—'),
          },
        ],
        installments,
        t,
      )}`,
  );
}

// The period the standard's lists ask for: the last year up to a day from now.
function lastYear(now: Date) {
  return {
    inicio: new Date(now.getTime() - 366 * 86_400_000).toISOString(),
    fim: new Date(now.getTime() + 86_400_000).toISOString(),
  };
}

export async function recurrencesPage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const now = await ctx.services.clock.now(ctx.principal.companyId);
  const current = Math.floor(skipOf(ctx) / LIMIT);
  const { recs, parametros } = await ctx.services.recs.list(ctx.principal, {
    ...lastYear(now),
    'paginacao.paginaAtual': current,
    'paginacao.itensPorPagina': LIMIT,
  });
  type Rec = pix['schemas']['RecCompletaPesquisada'];
  return page(
    'recurrences',
    t.recurrences,
    html`<h1>${t.recurrences}</h1>
      ${table(
        t.recurrences,
        [
          {
            head: 'idRec',
            cell: (r: Rec) =>
              html`<a href="/dashboard/recurrences/${encodeURIComponent(r.idRec)}" class="mono">${r.idRec}</a>`,
          },
          { head: t.status, cell: (r) => (r as { status?: string }).status ?? '—' },
          { head: t.value, cell: (r) => (r as { valor?: { valorRec?: string } }).valor?.valorRec ?? '—', num: true },
        ],
        recs,
        t,
      )}${pager(ctx, '/dashboard/recurrences', current * LIMIT, LIMIT, parametros.paginacao.quantidadeTotalDeItens)}`,
  );
}

export async function recurrencePage(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const idRec = ctx.params.id!;
  const rec = await ctx.services.recs.get(ctx.principal, idRec);
  const now = await ctx.services.clock.now(ctx.principal.companyId);
  const { cobsr } = await ctx.services.cobrs.list(ctx.principal, { ...lastYear(now), idRec });
  type CobR = pix['schemas']['CobRCompleta'];
  return page(
    'recurrences',
    `${t.recurrence} ${idRec}`,
    html`<p><a href="/dashboard/recurrences">← ${t.recurrences}</a></p>
      <h1>${t.recurrence} <span class="mono">${idRec}</span></h1>
      <div class="panel">
        <dl class="facts">
          <dt>${t.status}</dt>
          <dd>${(rec as { status?: string }).status ?? '—'}</dd>
        </dl>
      </div>
      <h2>${t.cobrs}</h2>
      ${table(
        t.cobrs,
        [
          { head: 'txid', cell: (c: CobR) => html`<span class="mono">${c.txid}</span>` },
          { head: t.status, cell: (c) => c.status },
          { head: t.value, cell: (c) => c.valor.original, num: true },
          { head: t.dueDate, cell: (c) => civilDate(c.calendario.dataDeVencimento, ctx.locale) },
          { head: t.createdAt, cell: (c) => dateTime(c.calendario.criacao, ctx.locale) },
        ],
        cobsr,
        t,
      )}`,
  );
}
