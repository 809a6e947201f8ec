// The documented verification (the snippet of docs/webhooks.md, run as written) accepts a real
// delivery and refuses forged, tampered and stale ones; the retry schedule; address ranges.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { DEFAULT_RETRY_SCHEDULE, JITTER, nextDelayMs, parseRetrySchedule, totalScheduleMs } from '../../src/webhooks/retry';
import { hmacSignature } from '../../src/webhooks/signature';
import { isPrivateAddress } from '../../src/webhooks/url-guard';
import { createCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

type Verify = (secret: string, rawBody: string, header: string | undefined, toleranceSeconds?: number, nowSeconds?: number) => boolean;

let server: TestServer;
let receiver: Receiver;
let verify: Verify;
let dir: string;

test.before(async () => {
  // The verification snippet exactly as docs/webhooks.md shows it.
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const snippet = /```js\n(\/\/ verify-pixgate-signature\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(snippet, 'docs/webhooks.md has the verification snippet');
  dir = mkdtempSync(join(tmpdir(), 'pixgate-doc-'));
  writeFileSync(join(dir, 'verify.mjs'), snippet!);
  verify = (await import(pathToFileURL(join(dir, 'verify.mjs')).href)).verifyPixgateSignature;
  server = await startTestServer({}, { backgroundJobs: false });
  receiver = await startReceiver();
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await receiver.close();
  await server.close();
});

test('a real delivery passes the documented verification; forged, tampered and stale ones fail it', async () => {
  const company = await createCompany(server.client);
  const res = await server.client.post('/api/v1/webhook', { webhook: { name: 'v', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/v` } }, { auth: company.appID });
  const secret: string = res.body.webhook.secret;
  await record(server, company.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { value: 100 } });
  await drain(server);
  const [req] = await receiver.waitFor(1);
  const header = req!.headers['x-pixgate-signature'] as string;
  const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)![1]);

  assert.ok(verify(secret, req!.body, header), 'the genuine delivery verifies');
  // Forged: signed by someone without the secret, or with the right format but wrong digest.
  const forger = hmacSignature('whsec_guessed', req!.body, Math.floor(Date.now() / 1000));
  assert.not.ok(verify(secret, req!.body, forger));
  assert.not.ok(verify(secret, req!.body, header.replace(/v1=(.)/, (_m, c) => `v1=${c === 'a' ? 'b' : 'a'}`)));
  // Tampered: the body changed after signing (amount raised).
  assert.not.ok(verify(secret, req!.body.replace('"value":100', '"value":100000'), header));
  // A timestamp moved forward with the old digest.
  assert.not.ok(verify(secret, req!.body, header.replace(`t=${t}`, `t=${t + 1}`)));
  // Stale: the genuine request replayed after the tolerance window (5 minutes).
  assert.ok(verify(secret, req!.body, header, 300, t + 300));
  assert.not.ok(verify(secret, req!.body, header, 300, t + 301));
  assert.not.ok(verify(secret, req!.body, header, 300, t - 301));
  // A freshly timestamped signature made with the secret verifies (what the server does).
  const fresh = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${req!.body}`).digest('hex')}`;
  assert.is(fresh, header);
  for (const bad of [undefined, '', 'v1=abc', `t=${t}`, `t=x,v1=${header.split('v1=')[1]}`]) assert.not.ok(verify(secret, req!.body, bad), String(bad));
  // Several v1 (e.g. during a secret rotation): one match is enough.
  assert.ok(verify(secret, req!.body, `${forger},v1=${header.split('v1=')[1]}`.replace(/^t=\d+/, `t=${t}`)));
});

test('the default retry schedule backs off exponentially over at least 24 hours', () => {
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
  assert.equal(loadConfig({}).webhooks, { retryScheduleMs: schedule, timeoutMs: 10_000 });
  assert.ok(totalScheduleMs(schedule) >= 24 * 3600_000, `${totalScheduleMs(schedule) / 3600_000} h`);
  assert.is(schedule[0], 60_000);
  for (let i = 1; i < schedule.length; i++) assert.ok(schedule[i]! >= schedule[i - 1]!);
  assert.equal(schedule.slice(0, 6), [60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]);
  // Jitter only lengthens, by at most 20 %.
  assert.is(nextDelayMs(schedule, 1, () => 0), 60_000);
  assert.is(nextDelayMs(schedule, 1, () => 0.999999), Math.round(60_000 * (1 + JITTER * 0.999999)));
  assert.is(nextDelayMs(schedule, schedule.length + 1), undefined);
  assert.equal(parseRetrySchedule('1500,2s, 3m,1h,1d,0'), [1500, 2000, 180_000, 3_600_000, 86_400_000, 0]);
  assert.equal(parseRetrySchedule('none'), []);
  assert.throws(() => parseRetrySchedule('1m,soon'), /PIXGATE_WEBHOOK_RETRY_SCHEDULE/);
  assert.throws(() => loadConfig({ PIXGATE_WEBHOOK_TIMEOUT_MS: '0' }), /PIXGATE_WEBHOOK_TIMEOUT_MS/);
  assert.is(loadConfig({ PIXGATE_WEBHOOK_TIMEOUT_MS: '2500' }).webhooks.timeoutMs, 2500);
});

test('private, loopback, link-local and reserved addresses are recognised, in every spelling', () => {
  const refused = ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fc12::3', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', 'not-an-ip'];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'];
  for (const a of refused) assert.ok(isPrivateAddress(a), `${a} should be refused`);
  for (const a of allowed) assert.not.ok(isPrivateAddress(a), `${a} should be allowed`);
});

test.run();
