// The sandbox (only when PIXGATE_SANDBOX is on): the company's clock (now, an hour, a day, or
// to a date, as POST /api/v1/sandbox/clock/advance does, expiring what is due), the failure
// table, and a new test company whose credentials are shown once.
import { errors } from '../../errors/errors';
import { sandboxFailureTable } from '../../rail/failure-table.service';
import { done, one, page, type Answer, type DashContext } from '../context';
import { dateTime, fromBrasiliaLocal } from '../view/format';
import { html, type Html } from '../view/html';
import { flash, postForm, table } from '../view/parts';

async function sandboxBody(ctx: DashContext, extra: Html = html``): Promise<Html> {
  const { t } = ctx;
  const clock = await ctx.services.sandbox.clockNow(ctx.principal.companyId);
  const advance = (seconds: number, label: string) =>
    postForm(
      ctx,
      '/dashboard/sandbox/clock',
      html`<input type="hidden" name="seconds" value="${seconds}" /><button type="submit">${label}</button>`,
    );
  return html`<h1>${t.sandbox}</h1>
    ${flash(ctx)}${extra}
    <section class="panel" aria-labelledby="clock-h">
      <h2 id="clock-h">${t.clock}</h2>
      <p>
        ${t.now}: <strong id="clock-now">${dateTime(clock.now, ctx.locale)}</strong>
        <span class="muted">(${clock.offsetSeconds} s)</span>
      </p>
      <div class="actions">
        ${advance(3600, t.advanceHour)}${advance(86_400, t.advanceDay)}
        ${postForm(ctx, '/dashboard/sandbox/clock', html`<label>${t.advanceTo}<input type="datetime-local" name="to" required /></label><button type="submit" class="secondary">${t.advance}</button>`, { label: t.advanceTo })}
      </div>
    </section>
    <section aria-labelledby="fail-h">
      <h2 id="fail-h">${t.failureTable}</h2>
      <p class="muted">${t.failureIntro}</p>
      ${table(
        t.failureTable,
        [
          { head: t.failure, cell: (f: ReturnType<typeof sandboxFailureTable>[number]) => f.failure },
          { head: t.key, cell: (f) => html`<span class="mono">${f.key}</span>` },
          { head: t.account, cell: (f) => f.account },
          { head: t.description, cell: (f) => t.failureDescriptions[f.failure] ?? f.description },
        ],
        [...sandboxFailureTable()],
        t,
      )}
    </section>
    <section class="panel" aria-labelledby="company-h">
      <h2 id="company-h">${t.newCompany}</h2>
      ${postForm(
        ctx,
        '/dashboard/sandbox/companies',
        html`<div class="actions">
          <label>${t.companyName}<input name="name" maxlength="100" /></label
          ><button type="submit">${t.newCompany}</button>
        </div>`,
        { label: t.newCompany },
      )}
    </section>`;
}

export async function sandboxPage(ctx: DashContext): Promise<Answer> {
  return page('sandbox', ctx.t.sandbox, await sandboxBody(ctx));
}

export async function advanceClock(ctx: DashContext): Promise<Answer> {
  const companyId = ctx.principal.companyId;
  let seconds = Number(ctx.form.seconds);
  if (ctx.form.to) {
    const target = fromBrasiliaLocal(ctx.form.to);
    const now = await ctx.services.clock.now(companyId);
    if (!target) throw errors.badRequest(`${ctx.t.advanceTo}: ?`);
    seconds = Math.ceil((target.getTime() - now.getTime()) / 1000);
  }
  await ctx.services.sandbox.advanceClock(companyId, seconds);
  return done(ctx, '/dashboard/sandbox', ctx.t.done);
}

export async function createTestCompany(ctx: DashContext): Promise<Answer> {
  const { t } = ctx;
  const name = one(ctx.form.name, 100);
  const { company, application } = await ctx.services.sandbox.createCompany(name ? { name } : {});
  const shown = html`<div class="notice" role="status">
    <p>${t.newCompanyDone}</p>
    <dl class="facts">
      <dt>${t.name}</dt>
      <dd>${company.name}</dd>
      <dt>appID</dt>
      <dd class="mono">${application.appID}</dd>
      <dt>client_id</dt>
      <dd class="mono">${application.clientId}</dd>
      <dt>client_secret</dt>
      <dd class="mono">${application.clientSecret}</dd>
    </dl>
  </div>`;
  return page('sandbox', t.sandbox, await sandboxBody(ctx, shown));
}
