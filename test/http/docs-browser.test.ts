// The API reference (/docs, Swagger UI served from the package, no CDN) in Debian's Chromium:
// "Try it out" reaches this server on whatever port it runs (the served specs name the origin
// they were loaded from), with an appID for the platform API and with OAuth client
// credentials typed into the page's Authorize dialog for the Pix API; and its defaults work
// for the company that just authorized: the list of charges opens on a period that holds the
// charge it just made, and a cob created with the example body is paid into its own key.
// credentials typed into the page's Authorize dialog for the Pix API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Browser, type Page } from 'playwright-core';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
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

test('the served specs name the server they were loaded from', async () => {
  for (const name of ['platform', 'pix']) {
    const spec = await server.client.get(`/docs/specs/${name}.yaml`);
    assert.match(spec.text, new RegExp(`^servers:\\n  - url: ${server.url.replace(/\./g, '\\.')}\\n`, 'm'));
  }
});

// What the page's CSP blocked (Chromium reports each refusal as a console error) or its
// scripts threw, by page.
const problems = new WeakMap<Page, string[]>();

test("GET /docs/defaults answers the caller's default key, to either API's credentials only", async () => {
  assert.is((await server.client.get('/docs/defaults')).status, 401);
  assert.is((await server.client.get('/docs/defaults', { auth: 'Bearer nope' })).status, 401);
  const byAppId = await server.client.get('/docs/defaults', { auth: company.appID });
  assert.equal([byAppId.status, byAppId.body], [200, { chave: company.pixKey }]);
  const byToken = await server.client.get('/docs/defaults', {
    auth: await pixToken(server.client, company, 'cob.read'),
  });
  assert.equal(byToken.body, { chave: company.pixKey });
  assert.is(byToken.headers.get('cache-control'), 'no-store');
});

test('the served specs open list periods on the 30 days before today and the next day', async () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const [name, start, end] of [
    ['platform', 'start', 'end'],
    ['pix', 'inicio', 'fim'],
  ] as const) {
    const spec = await server.client.get(`/docs/specs/${name}.yaml`);
    const exampleOf = (param: string) =>
      new RegExp(`name: ${param}\\n(?:.*\\n)*?\\s+example: (\\S+)`).exec(spec.text)?.[1];
    assert.is(exampleOf(start), `${day(-30)}T00:00:00Z`, `${name} ${start}`);
    assert.is(exampleOf(end), `${day(1)}T23:59:59Z`, `${name} ${end}`);
  }
});

async function reference(definition: number): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
  const seen: string[] = [];
  problems.set(page, seen);
  // (the browser's own request for /favicon.ico, which this server does not have, aside)
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(e.message));
  await page.goto(`${server.url}/docs`);
  await page.locator('.topbar select').selectOption({ index: definition });
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
  return page;
}

// Runs one operation's "Try it out" and answers the status the page shows.
async function execute(page: Page, operationId: string, fill: Record<string, string> = {}): Promise<string> {
  const op = page.locator(`[id$="-${operationId}"].opblock`);
  await op.locator('.opblock-summary').click();
  for (const [name, value] of Object.entries(fill)) await op.locator(`input[placeholder="${name}"]`).fill(value);
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 15_000 });
  return (await status.textContent())!.trim();
}

async function authorizeAppId(page: Page, appID: string): Promise<void> {
  await page.click('button.authorize');
  // The dialog lists every scheme of the spec (AppID, then the operators' token): fill AppID's.
  const appId = page.locator('.modal-ux .auth-container').filter({ hasText: 'AppID' });
  await appId.locator('input').first().fill(appID);
  await appId.locator('button.authorize').first().click();
  await page.locator('.modal-ux button.btn-done').first().click();
}

// The body of the answer "Try it out" shows, parsed.
async function answerOf(page: Page, operationId: string): Promise<any> {
  const op = page.locator(`[id$="-${operationId}"].opblock`);
  return JSON.parse((await op.locator('.live-responses-table .response-col_description pre').first().textContent())!);
}

inChromium('platform API: Authorize with an appID, then Try it out answers 200', async () => {
  const page = await reference(0);
  await authorizeAppId(page, company.appID);
  assert.is(await execute(page, 'getCompany'), '200');
  assert.match((await page.locator('.curl').first().textContent())!, new RegExp(`${server.url}/api/v1/company`));
  assert.equal(problems.get(page), [], 'nothing blocked by the CSP, no script error');
  await page.close();
});

inChromium("platform API: Try it out's default period lists the charge a fresh company just made", async () => {
  const fresh = await createCompany(server.client);
  const made = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'docs-1', value: 990 },
    { auth: fresh.appID },
  );
  assert.is(made.status, 200, made.text);
  const page = await reference(0);
  await authorizeAppId(page, fresh.appID);
  assert.is(await execute(page, 'listCharges'), '200');
  const listed = await answerOf(page, 'listCharges');
  assert.equal(
    listed.charges.map((c: { correlationID: string }) => c.correlationID),
    ['docs-1'],
    'the charge made a moment ago',
  );
  await page.close();
});

inChromium(
  'Pix API: Authorize with client credentials (token from the page), then Try it out answers 200',
  async () => {
    const bearer = await pixToken(server.client, company, 'cob.write');
    const cob = await server.client.post(
      '/pix/v2/cob',
      { calendario: {}, valor: { original: '1.00' }, chave: company.pixKey },
      { auth: bearer },
    );
    const txid = cob.body.txid as string | undefined;
    const page = await reference(1);
    await page.click('button.authorize');
    await page.fill('#client_id_clientCredentials', company.clientId);
    await page.fill('#client_secret_clientCredentials', company.clientSecret);
    await page.click('label[for="cob.read-clientCredentials-checkbox-OAuth2"]');
    await page.locator('.modal-ux button.authorize').first().click();
    // the page posts to /oauth/token itself; the dialog says Authorized once the token is back
    await page.locator('.modal-ux .auth-container', { hasText: 'Authorized' }).first().waitFor({ timeout: 15_000 });
    await page.locator('.modal-ux button.btn-done').first().click();
    assert.ok(txid, cob.text);
    assert.is(await execute(page, 'getCob', { txid: txid! }), '200');
    assert.equal(problems.get(page), [], 'nothing blocked by the CSP, no script error');
    await page.close();
  },
);

inChromium('no page of this server can be framed by another site', async () => {
  // Another origin (this machine, another port) whose page frames the reference, the landing
  // page and, as a control that framing itself works here, a JSON answer (not a page).
  const framed = ['/docs', '/', '/healthz'];
  const other = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(framed.map((p) => `<iframe src="${server.url}${p}"></iframe>`).join(''));
  });
  await new Promise<void>((ok) => other.listen(0, '127.0.0.1', ok));
  const page = await browser!.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
    await page.waitForLoadState('load');
    const urls = page
      .frames()
      .filter((f) => f !== page.mainFrame())
      .map((f) => f.url());
    // a refused frame is left on Chromium's error page
    assert.equal(urls, ['chrome-error://chromewebdata/', 'chrome-error://chromewebdata/', `${server.url}/healthz`]);
  } finally {
    await page.close();
    await new Promise((ok) => other.close(ok));
  }
});

inChromium("Pix API: PUT /cob with Try it out's defaults answers 201, paid into the company's own key", async () => {
  const fresh = await createCompany(server.client);
  const page = await reference(1);
  await page.click('button.authorize');
  await page.fill('#client_id_clientCredentials', fresh.clientId);
  await page.fill('#client_secret_clientCredentials', fresh.clientSecret);
  await page.click('label[for="cob.write-clientCredentials-checkbox-OAuth2"]');
  await page.locator('.modal-ux button.authorize').first().click();
  await page.locator('.modal-ux .auth-container', { hasText: 'Authorized' }).first().waitFor({ timeout: 15_000 });
  await page.locator('.modal-ux button.btn-done').first().click();
  assert.is(await execute(page, 'putCob'), '201');
  const created = await answerOf(page, 'putCob');
  assert.is(created.chave, fresh.pixKey, "the example's key became the company's");
  await page.screenshot({ path: '.tmp/docs-put-cob.png', fullPage: false });
  await page.close();
});

test.run();
