// The payment page as a payer's browser shows it: Debian's Chromium (installed by make test's
// `test-tools` step) driven by playwright-core. It renders the page at phone and desktop widths,
// decodes the QR code from the screenshot with jsQR, clicks copy and "Simular pagamento", and
// sees the status change, then a refund, without a reload.
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { inChromium, launchChromium } from '../support/chromium';

let server: TestServer;
let company: TestCompany;
let browser: Browser | undefined;

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
  browser = await launchChromium();
});

test.after(async () => {
  await browser?.close();
  await server.close();
});

async function newCharge(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await server.client.post(
    '/api/v1/charge',
    { correlationID: `pedido-${Math.random().toString(36).slice(2)}`, value: 1234, comment: 'Pedido 1', ...body },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  return res.body.charge;
}

const pagePath = (charge: Record<string, any>) => new URL(charge.paymentLinkUrl as string).pathname;

async function contextAt(width: number, locale = 'pt-BR'): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width, height: 900 }, locale });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  return context;
}

// Opens the page and fails on anything the CSP blocked or the script threw.
async function open(context: BrowserContext, path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  // (the browser's own request for /favicon.ico, which this server does not have, aside)
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const res = await page.goto(server.url + path);
  assert.is(res?.status(), 200);
  await until(page, IMAGE_LOADED);
  return { page, problems };
}

// Browser-side expressions, as text: this project's TypeScript has no DOM types.
const IMAGE_LOADED = `(() => { const img = document.querySelector('img.qr'); return !img || (img.complete && img.naturalWidth > 0); })()`;
const FITS = `(() => {
  const code = document.getElementById('brcode');
  return {
    page: document.documentElement.scrollWidth <= window.innerWidth,
    code: code.scrollWidth <= code.clientWidth && code.scrollHeight <= code.clientHeight,
  };
})()`;
// Polls an expression through page.evaluate (waitForFunction evaluates strings with eval,
// which the page's CSP rightly refuses).
async function until(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

const textIs = (selector: string, text: string) =>
  `document.querySelector(${JSON.stringify(selector)})?.textContent === ${JSON.stringify(text)}`;

function decodeScreenshot(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

inChromium('at 320, 390 and 1280 px the QR is centred, decodes to the brCode, and the code fits', async () => {
  const charge = await newCharge();
  for (const width of [320, 390, 1280]) {
    const context = await contextAt(width);
    const { page, problems } = await open(context, pagePath(charge));
    assert.is(await page.getAttribute('html', 'lang'), 'pt-BR');
    assert.is(await page.textContent('.amount'), 'R$ 12,34');
    assert.is(await page.textContent('#status'), 'Aguardando pagamento');
    const qr = (await page.locator('img.qr').boundingBox())!;
    assert.ok(Math.abs(qr.x + qr.width / 2 - width / 2) <= 1, `QR centred at ${width} px: ${JSON.stringify(qr)}`);
    assert.ok(qr.width >= 250, `QR at least 250 px wide at ${width} px`);
    const fits = await page.evaluate(FITS);
    assert.equal(fits, { page: true, code: true }, `nothing cut off at ${width} px`);
    assert.is(await page.textContent('#brcode'), charge.brCode);
    const shot = await page.screenshot({ fullPage: true });
    assert.is(decodeScreenshot(shot), charge.brCode, `QR decoded from the ${width} px screenshot`);
    assert.equal(problems, []);
    await context.close();
  }
});

inChromium('copy puts the brCode on the clipboard; simulate pays it; the page follows without reload', async () => {
  const charge = await newCharge();
  const context = await contextAt(390);
  const { page, problems } = await open(context, pagePath(charge));
  await page.evaluate("window.marker = 'same document'");

  await page.click('#copy');
  await until(page, textIs('#copy', 'Código copiado!'));
  assert.is(await page.evaluate('navigator.clipboard.readText()'), charge.brCode);

  await page.click('#simulate');
  await until(page, textIs('#status', 'Pago'));
  assert.is(await page.locator('.paid-amount').textContent(), 'R$ 12,34');
  assert.match((await page.locator('.paid').textContent())!, /Pago em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
  assert.is(await page.locator('img.qr').count(), 0, 'no QR once paid');
  const read = await server.client.get(`/api/v1/charge/${charge.correlationID}`, { auth: company.appID });
  assert.is(read.body.charge.status, 'COMPLETED');

  const refund = await server.client.post(
    `/api/v1/charge/${charge.correlationID}/refund`,
    { correlationID: `estorno-${charge.correlationID}`, value: 500 },
    { auth: company.appID },
  );
  assert.is(refund.status, 200, refund.text);
  await page.waitForSelector('.refunds li', { timeout: 15_000 });
  assert.match((await page.locator('.refunds').textContent())!, /^R\$ 5,00, /);
  assert.is(await page.evaluate('window.marker'), 'same document');
  assert.equal(problems, []);
  await context.close();
});

inChromium('a removed charge says so without reload; English by Accept-Language', async () => {
  const charge = await newCharge({ value: 123456 });
  const context = await contextAt(1280, 'en-US');
  const { page, problems } = await open(context, pagePath(charge));
  assert.is(await page.getAttribute('html', 'lang'), 'en');
  assert.is(await page.textContent('.amount'), 'R$ 1,234.56');
  assert.is(await page.textContent('#status'), 'Awaiting payment');
  assert.is(await page.textContent('#copy'), 'Copy code');
  const removed = await server.client.delete(`/api/v1/charge/${charge.correlationID}`, { auth: company.appID });
  assert.is(removed.status, 200, removed.text);
  await until(page, textIs('#status', 'Cancelled by the merchant: this charge can no longer be paid'));
  assert.equal(problems, []);
  await context.close();
});

test.run();
