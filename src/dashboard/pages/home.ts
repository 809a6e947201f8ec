// Home: the account's balance (total, blocked, available), money in and out per day for the
// last 30 days (a chart, and the same figures as a table), the last events (read at once
// with the balance).
import { getBalanceWithDailyFlows, type DailyFlow } from '../../ledger/ledger.service';
import { page, type Answer, type DashContext } from '../context';
import { brasiliaDay, dayLabel, money } from '../view/format';
import { html, raw } from '../view/html';
import { table } from '../view/parts';
import { eventsTable } from './events';

const DAYS = 30;

// The last 30 Brasília days (today included), each with its flows (zero when none).
function lastDays(now: Date, flows: DailyFlow[]): DailyFlow[] {
  const byDay = new Map(flows.map((f) => [f.day, f]));
  const out: DailyFlow[] = [];
  for (let i = DAYS - 1; i >= 0; i--) {
    const day = brasiliaDay(new Date(now.getTime() - i * 86_400_000));
    out.push(byDay.get(day) ?? { day, moneyIn: 0, moneyOut: 0 });
  }
  return out;
}

export async function homePage(ctx: DashContext): Promise<Answer> {
  const { t, principal, services } = ctx;
  const now = await services.clock.now(principal.companyId);
  const since = new Date(now.getTime() - (DAYS + 1) * 86_400_000);
  const [{ balance, days: flows }, { events }] = await Promise.all([
    getBalanceWithDailyFlows(services.db, principal.accountId, since),
    services.events.list(principal.companyId, { limit: 10 }),
  ]);
  const days = lastDays(now, flows);
  const chartData = {
    labels: [t.moneyIn, t.moneyOut],
    dayLabel: t.day,
    days: days.map((d) => Date.parse(`${d.day}T12:00:00-03:00`) / 1000),
    moneyIn: days.map((d) => d.moneyIn),
    moneyOut: days.map((d) => d.moneyOut),
  };
  // JSON in a data block (never run); '<' escaped so no text can close the element
  const json = JSON.stringify(chartData).replace(/</g, '\\u003c');
  const card = (label: string, cents: number) =>
    html`<div class="card">
      <div class="label">${label}</div>
      <div class="amount">${money(cents)}</div>
    </div>`;
  return page(
    'home',
    t.home,
    html`<h1>${t.home}</h1>
      <section aria-labelledby="balance-h">
        <h2 id="balance-h">${t.balance}</h2>
        <div class="cards">
          ${card(t.total, balance.total)}${card(t.blocked, balance.blocked)}${card(t.available, balance.available)}
        </div>
      </section>
      <section aria-labelledby="flow-h">
        <h2 id="flow-h">${t.last30}</h2>
        <div class="panel">
          <div id="flow-chart" role="img" aria-label="${t.last30}"></div>
          <script type="application/json" id="flow-data">
            ${raw(json)}
          </script>
          <details>
            <summary>${t.chartTable}</summary>
            ${table(
              t.last30,
              [
                { head: t.day, cell: (d: DailyFlow) => dayLabel(d.day, ctx.locale) },
                { head: t.moneyIn, cell: (d) => money(d.moneyIn), num: true },
                { head: t.moneyOut, cell: (d) => money(d.moneyOut), num: true },
              ],
              days.filter((d) => d.moneyIn || d.moneyOut),
              t,
            )}
          </details>
        </div>
      </section>
      <section aria-labelledby="events-h">
        <h2 id="events-h">${t.lastEvents}</h2>
        ${eventsTable(ctx, events)}
        <p><a href="/dashboard/events">${t.events} →</a></p>
      </section>`,
  );
}
