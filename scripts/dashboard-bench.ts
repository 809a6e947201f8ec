// The dashboard's first screen in Chromium with 10,000 charges in the company: for each page,
// the median of 5 loads (navigation start to the load event, as the browser measures it), and
// the statements the server sent for it. The target: under 1 s each. Embedded database
// unless DATABASE_URL (a schema of its own, dropped afterwards). Usage: tsx scripts/dashboard-bench.ts
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { dropSchema } from '../src/db/database';
import { startServer } from '../src/server';
import { createCompany } from '../test/support/fixtures';
import { TestClient, freePort, type TestServer } from '../test/support/server';
import { launchChromium } from '../test/support/chromium';
import { loadCharges } from '../test/dashboard/support';

const RUNS = 5;
const url = process.env.DATABASE_URL;
const schema = url ? `dash_${randomBytes(4).toString('hex')}` : undefined;
const port = await freePort();
const running = await startServer({
  config: loadConfig({ PORT: String(port), LOG_LEVEL: 'silent', PIXGATE_COUNT_STATEMENTS: 'true' }),
  logger: pino({ level: 'silent' }),
  database: url ? { url, schema: schema! } : {},
  backgroundJobs: false,
});
const server = { ...running, client: new TestClient(running.url) } as TestServer;
const browser = await launchChromium();
try {
  if (!browser) throw new Error('needs Debian chromium at /usr/bin/chromium');
  const company = await createCompany(server.client, { name: 'Loja Grande' });
  await loadCharges(server, company, 10_000);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${server.url}/dashboard/login`);
  await page.fill('input[name=appId]', company.appID);
  await page.click('button[type=submit]');
  await page.waitForURL(`${server.url}/dashboard`);
  const paths = [
    '/dashboard',
    '/dashboard/charges',
    '/dashboard/charges?status=ACTIVE',
    '/dashboard/charges?q=load-5000',
    '/dashboard/charges/load-5000',
    '/dashboard/pix',
    '/dashboard/webhooks',
    '/dashboard/sandbox',
  ];
  for (const path of paths) {
    const times: number[] = [];
    let statements = '';
    for (let i = 0; i < RUNS; i++) {
      const res = await page.goto(server.url + path, { waitUntil: 'load' });
      statements = (await res?.allHeaders())?.['x-db-statements'] ?? '?';
      times.push(Number(await page.evaluate('performance.getEntriesByType("navigation")[0].loadEventEnd')));
    }
    const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    console.log(`${path.padEnd(36)} ${median.toFixed(0).padStart(5)} ms  ${statements} statements`);
  }
} finally {
  await browser?.close();
  await running.close();
  if (url && schema) await dropSchema(url, schema);
}
