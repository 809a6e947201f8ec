import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startTestServer } from './support/server';
const s = await startTestServer();
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
for (const v of process.argv.slice(2)) {
  const p = await b.newPage({ viewport: { width: 1280, height: 1000 } });
  await p.route('**/swagger-ui-bundle.js', (r) => r.fulfill({ body: readFileSync(`/tmp/sw/${v}/package/swagger-ui-bundle.js`), contentType: 'application/javascript' }));
  await p.route('**/swagger-ui-standalone-preset.js', (r) => r.fulfill({ body: readFileSync(`/tmp/sw/${v}/package/swagger-ui-standalone-preset.js`), contentType: 'application/javascript' }));
  await p.goto(`${s.url}/docs`);
  await p.waitForTimeout(6000);
  console.log(v, await p.locator('.opblock').count());
  await p.close();
}
await b.close(); await s.close(); process.exit(0);
