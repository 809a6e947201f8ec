// The dashboard in Debian's Chromium (playwright-core): sign in through the form, every page
// at 360 and 1280 px (a screenshot of each kept in .tmp/screenshots/dashboard/, axe-core finds
// no serious or critical violation, nothing blocked by the CSP, nothing wider than the
// screen), a charge followed from the list to its page and paid with "simulate payment" (the
// status, timeline, Pix and delivery panels change without a reload), the clock advanced until
// a charge expires, a failed delivery resent and its new attempt shown with the answer.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { inChromium, launchChromium } from '../support/chromium';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { PROJECT_ROOT } from '../../src/lib/root';

const NOT_FOUND = '/dashboard/charges/nada-disso';
const SHOTS = join(PROJECT_ROOT, '.tmp', 'screenshots', 'dashboard');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server: TestServer;
let company: TestCompany;
let browser: Browser | undefined;
let receiver: Receiver;
let context: BrowserContext;
const problems: string[] = [];

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: 'none' });
  company = await createCompany(server.client, { name: 'Padaria Boa Vista' });
  receiver = await startReceiver((_req, index) => (index === 0 ? 500 : 200));
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'erp', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/pix`, isActive: true } },
    { auth: company.appID },
  );
  assert.is(hook.status, 200, hook.text);
  for (let i = 1; i <= 12; i++) await newCharge(`pedido-${i}`, { value: 123_456 + i * 10_037 });
  await detailPages(hook.body.webhook.id);
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
});

test.after(async () => {
  await browser?.close();
  await receiver.close();
  await server.close();
});

async function newCharge(correlationID: string, body: Record<string, unknown> = {}) {
  const res = await server.client.post(
    '/api/v1/charge',
    {
      correlationID,
      value: 1234,
      comment: 'Pedido',
      customer: { name: 'Maria Silva', taxID: '529.982.247-25' },
      ...body,
    },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  return res.body.charge;
}

function watch(page: Page): Page {
  page.on('console', (m) => {
    // (the browser's own favicon request, and the 404 of the not-found page itself, aside)
    const expected =
      m.location().url.endsWith('/favicon.ico') || (page.url().endsWith(NOT_FOUND) && /404/.test(m.text()));
    if (m.type() === 'error' && !expected) problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  return page;
}

// Polls a browser-side expression (waitForFunction would eval, which the CSP refuses).
async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations
      .filter(v => v.impact === 'serious' || v.impact === 'critical')
      .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', ')))`,
  )) as string[];
  return found;
}

inChromium('signs in through the form (appID), in Portuguese', async () => {
  context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  const page = watch(await context.newPage());
  const res = await page.goto(`${server.url}/dashboard`);
  assert.is(new URL(page.url()).pathname, '/dashboard/login', String(res?.status()));
  await page.fill('input[name=appId]', company.appID);
  await page.click('button[type=submit]');
  await page.waitForURL(`${server.url}/dashboard`);
  assert.match((await page.textContent('h1')) ?? '', 'Início');
  assert.match((await page.textContent('.cards')) ?? '', 'R$');
  await page.close();
});

// The detail pages of an event, an API call (a 404: its bodies kept) and the delivery of
// the new webhook's test event.
async function detailPages(webhookId: string) {
  const auth = { auth: company.appID };
  const events = await server.client.get('/api/v1/events?type=OPENPIX:CHARGE_CREATED&limit=1', auth);
  assert.is(events.status, 200, events.text);
  assert.is((await server.client.get('/api/v1/charge/nada-disso', auth)).status, 404);
  await server.services.requestLogs.flush();
  const calls = await server.client.get('/api/v1/request-logs?status=404', auth);
  assert.is(calls.status, 200, calls.text);
  let deliveries = await server.client.get(`/api/v1/webhook/${encodeURIComponent(webhookId)}/deliveries`, auth);
  for (let i = 0; i < 100 && deliveries.body.deliveries?.[0]?.status !== 'SUCCEEDED'; i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    deliveries = await server.client.get(`/api/v1/webhook/${encodeURIComponent(webhookId)}/deliveries`, auth);
  }
  const hook = `/dashboard/webhooks/${encodeURIComponent(webhookId)}`;
  PAGES.push(
    `event:/dashboard/events/${events.body.events[0].id}`,
    `request:/dashboard/requests/${calls.body.requestLogs[0].requestId}`,
    `webhook:${hook}`,
    `delivery:${hook}/deliveries/${deliveries.body.deliveries[0].id}`,
  );
}

const PAGES = [
  'home:/dashboard',
  'charges:/dashboard/charges',
  'charge:/dashboard/charges/pedido-1',
  'pix:/dashboard/pix',
  'refunds:/dashboard/refunds',
  'payments:/dashboard/payments',
  'subscriptions:/dashboard/subscriptions',
  'recurrences:/dashboard/recurrences',
  'keys:/dashboard/keys',
  'subaccounts:/dashboard/subaccounts',
  'webhooks:/dashboard/webhooks',
  'events:/dashboard/events',
  'requests:/dashboard/requests',
  'sandbox:/dashboard/sandbox',
  `not-found:${NOT_FOUND}`,
];

inChromium('every page at 360 and 1280 px: no serious axe finding, nothing blocked, nothing too wide', async () => {
  for (const width of [360, 1280]) {
    const page = watch(await context.newPage());
    await page.setViewportSize({ width, height: 800 });
    for (const entry of PAGES) {
      const [name, path] = [entry.slice(0, entry.indexOf(':')), entry.slice(entry.indexOf(':') + 1)];
      const res = await page.goto(server.url + path);
      assert.is(res?.status(), name === 'not-found' ? 404 : 200, `${path}: ${res?.status()}`);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      const fits = await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
      assert.ok(fits, `${path} is wider than ${width} px`);
      assert.equal(await axeFindings(page), [], `${path} at ${width} px`);
    }
    await page.close();
  }
  assert.equal(problems, []);
});

inChromium('the keyboard reaches the menu and the first link shows its focus', async () => {
  const page = watch(await context.newPage());
  await page.goto(`${server.url}/dashboard/charges`);
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate('document.activeElement.className'), 'skip');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
  assert.is.not(outline, 'none');
  await page.close();
});

inChromium('a charge from the list, paid by "simulate payment": its page changes without a reload', async () => {
  const page = watch(await context.newPage());
  await page.goto(`${server.url}/dashboard/charges?q=pedido-3`);
  await page.click('a[href="/dashboard/charges/pedido-3"]');
  await page.waitForURL(`${server.url}/dashboard/charges/pedido-3`);
  await page.evaluate('window.__sameDocument = true');
  assert.match((await page.textContent('[data-panel=status]')) ?? '', 'Ativa');
  await page.click('[data-panel=actions] button:has-text("Simular pagamento")');
  await until(page, `document.querySelector('[data-panel=status]').textContent.includes('Paga')`);
  await until(page, `document.querySelector('[data-panel=timeline]').textContent.includes('Pagamento recebido')`);
  await until(page, `document.querySelector('[data-panel=pix]').textContent.includes('Pagador do sandbox')`);
  await until(
    page,
    `document.querySelector('[data-panel=deliveries]').textContent.includes('OPENPIX:CHARGE_COMPLETED')`,
  );
  await until(page, `document.querySelector('[data-panel=deliveries]').textContent.includes('HTTP 500')`);
  assert.ok(await page.evaluate('window.__sameDocument === true'), 'the page was reloaded');
  await page.screenshot({ path: join(SHOTS, 'charge-paid-1280.png'), fullPage: true });
  await page.close();
});

inChromium("the failed delivery resent: the new attempt shows the receiver's answer", async () => {
  const page = watch(await context.newPage());
  await page.goto(`${server.url}/dashboard/charges/pedido-3`);
  await page.click('[data-panel=deliveries] a');
  assert.match((await page.textContent('main')) ?? '', 'HTTP 500');
  await page.click('button:has-text("Reenviar")');
  await page.waitForLoadState();
  const text = (await page.textContent('main')) ?? '';
  assert.match(text, 'HTTP 200');
  assert.is(await page.locator('table tbody tr').count(), 2);
  assert.is(receiver.requests.length, 2);
  await page.close();
});

inChromium('the clock advanced a day: a charge of an hour expires', async () => {
  await newCharge('pedido-hora', { expiresIn: 3600 });
  const page = watch(await context.newPage());
  await page.goto(`${server.url}/dashboard/charges/pedido-hora`);
  assert.match((await page.textContent('[data-panel=status]')) ?? '', 'Ativa');
  await page.goto(`${server.url}/dashboard/sandbox`);
  await page.click('button:has-text("Avançar 1 dia")');
  await page.waitForURL(/\/dashboard\/sandbox\?msg=/);
  await page.goto(`${server.url}/dashboard/charges/pedido-hora`);
  assert.match((await page.textContent('[data-panel=status]')) ?? '', 'Expirada');
  assert.match((await page.textContent('[data-panel=timeline]')) ?? '', 'Cobrança expirada');
  await page.goto(`${server.url}/dashboard/charges?status=EXPIRED`);
  assert.match((await page.textContent('main')) ?? '', 'pedido-hora');
  await page.close();
});

inChromium('English by choice, amounts as R$ 1.234,56 and times in Brasília', async () => {
  const page = watch(await context.newPage());
  await page.goto(`${server.url}/dashboard/charges?lang=en`);
  assert.is(await page.getAttribute('html', 'lang'), 'en');
  assert.match((await page.textContent('h1')) ?? '', 'Charges');
  const text = (await page.textContent('main')) ?? '';
  assert.match(text, /R\$\s1\.\d{3},\d{2}/);
  await page.goto(`${server.url}/dashboard?lang=pt-BR`);
  await page.setViewportSize({ width: 1280, height: 820 });
  await page.screenshot({ path: join(SHOTS, 'readme-home-1280.png') });
  writeFileSync(join(SHOTS, 'problems.txt'), problems.join('\n'));
  assert.equal(problems, []);
  await page.close();
});

inChromium("the chart's legend says the last day's figures until a day is hovered, and again after", async () => {
  const page = watch(await context.newPage());
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/dashboard?lang=pt-BR`);
  // The last day is the company's today (its clock was moved a day by an earlier test).
  const data = JSON.parse((await page.textContent('#flow-data')) ?? '{}');
  const day = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit' });
  const money = (cents: number) => `R$${(cents / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2 })}`;
  // What the legend says of day i (its spaces left out).
  const legendOf = (i: number) =>
    `Dia${day.format(new Date(data.days[i] * 1000))}Entradas${money(data.moneyIn[i])}Saídas${money(data.moneyOut[i])}`;
  const legend = async () => (await page.locator('#flow-chart .u-legend').innerText()).replace(/\s+/g, '');
  const last = legendOf(data.days.length - 1);
  assert.is(await legend(), last);
  const box = (await page.locator('#flow-chart .u-over').boundingBox())!;
  await page.mouse.move(box.x + 5, box.y + box.height / 2);
  assert.is(await legend(), legendOf(0));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height + 200);
  assert.is(await legend(), last);
  await page.close();
});

test.run();
