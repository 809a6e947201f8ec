// The documented verifications (both snippets of docs/webhooks.md, run as written) accept the real
// deliveries of a paid charge and refuse forged, tampered and stale ones; the retry schedule; address ranges.
import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import {
  DEFAULT_RETRY_SCHEDULE,
  JITTER,
  nextDelayMs,
  parseRetrySchedule,
  totalScheduleMs,
} from '../../src/webhooks/retry';
import { hmacSignature } from '../../src/webhooks/signature';
import { isPrivateAddress } from '../../src/webhooks/url-guard';
import { createCompany, pixToken } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, startReceiver, type Receiver } from './receiver';

type Verify = (
  secret: string,
  rawBody: string,
  header: string | undefined,
  toleranceSeconds?: number,
  nowSeconds?: number,
) => boolean;
type Documented = {
  verifyPixgateSignature: Verify;
  fetchWebhookPublicKeys: (baseUrl: string) => Promise<string[]>;
  verifyWebhookSignature: (pems: string[], rawBody: string, header: string | undefined) => boolean;
};

let server: TestServer;
let receiver: Receiver;
let documented: Documented;
let dir: string;

test.before(async () => {
  // The verification snippets exactly as docs/webhooks.md shows them, run as modules.
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const hmac = /```js\n(\/\/ verify-pixgate-signature\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  const rsa = /```js\n(\/\/ verify-webhook-signature\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(hmac, 'docs/webhooks.md has the HMAC verification snippet');
  assert.ok(rsa, 'docs/webhooks.md has the x-webhook-signature verification snippet');
  dir = mkdtempSync(join(tmpdir(), 'pixgate-doc-'));
  writeFileSync(join(dir, 'verify-hmac.mjs'), hmac!);
  writeFileSync(join(dir, 'verify-rsa.mjs'), rsa!);
  documented = {
    ...(await import(pathToFileURL(join(dir, 'verify-hmac.mjs')).href)),
    ...(await import(pathToFileURL(join(dir, 'verify-rsa.mjs')).href)),
  };
  server = await startTestServer({}, { backgroundJobs: false });
  receiver = await startReceiver();
});
test.after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await receiver.close();
  await server.close();
});

test('real deliveries of a paid charge pass the documented verifications; forged, tampered and stale ones fail them', async () => {
  const company = await createCompany(server.client);
  const res = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'v', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/v` } },
    { auth: company.appID },
  );
  const secret: string = res.body.webhook.secret;
  const put = await server.client.put(
    `/pix/v2/webhook/${company.pixKey}`,
    { webhookUrl: `${receiver.url}/erp` },
    { auth: await pixToken(server.client, company) },
  );
  assert.is(put.status, 200, put.text);
  const pixSecret = put.headers.get('x-pixgate-webhook-secret')!;
  const charge = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'pedido-assinado', value: 10000 },
    { auth: company.appID },
  );
  assert.is(charge.status, 200, charge.text);
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: charge.body.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(pay.status, 200, pay.text);
  await drain(server, 2);
  const requests = await receiver.waitFor(2);
  assert.equal(requests.map((r) => r.path).sort(), ['/erp/pix', '/v']);
  const platform = requests.find((r) => r.path === '/v')!;
  const callback = requests.find((r) => r.path === '/erp/pix')!;
  const { verifyPixgateSignature: verify, fetchWebhookPublicKeys, verifyWebhookSignature } = documented;

  // The public keys as a receiver of the public reference fetches them: no credentials.
  const pems = await fetchWebhookPublicKeys(server.url);
  assert.is(pems.length, 1);
  for (const r of [platform, callback])
    assert.ok(
      verifyWebhookSignature(pems, r.body, r.headers['x-webhook-signature'] as string),
      `${r.path}: x-webhook-signature`,
    );
  assert.ok(
    verify(pixSecret, callback.body, callback.headers['x-pixgate-signature'] as string),
    'the /pix callback verifies with its own secret',
  );
  assert.not.ok(
    verify(secret, callback.body, callback.headers['x-pixgate-signature'] as string),
    "another webhook's secret does not verify it",
  );

  const header = platform.headers['x-pixgate-signature'] as string;
  const body = platform.body;
  assert.ok(body.includes('"value":10000'));
  const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)![1]);

  assert.ok(verify(secret, body, header), 'the genuine delivery verifies');
  // Forged: signed by someone without the secret, or with the right format but wrong digest.
  const forger = hmacSignature('whsec_guessed', body, Math.floor(Date.now() / 1000));
  assert.not.ok(verify(secret, body, forger));
  assert.not.ok(
    verify(
      secret,
      body,
      header.replace(/v1=(.)/, (_m, c) => `v1=${c === 'a' ? 'b' : 'a'}`),
    ),
  );
  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgedRsa = createSign('RSA-SHA256').update(body).sign(otherKey.privateKey, 'base64');
  assert.not.ok(verifyWebhookSignature(pems, body, forgedRsa), 'an RSA signature by another key');
  assert.not.ok(verifyWebhookSignature(pems, body, undefined));
  assert.not.ok(verifyWebhookSignature(pems, body, ''));
  // Tampered: the body changed after signing (amount raised).
  const tampered = body.replace('"value":10000', '"value":1000000');
  assert.is.not(tampered, body);
  assert.not.ok(verify(secret, tampered, header));
  assert.not.ok(verifyWebhookSignature(pems, tampered, platform.headers['x-webhook-signature'] as string));
  // A timestamp moved forward with the old digest.
  assert.not.ok(verify(secret, body, header.replace(`t=${t}`, `t=${t + 1}`)));
  // Stale: the genuine request replayed after the tolerance window (5 minutes).
  assert.ok(verify(secret, body, header, 300, t + 300));
  assert.not.ok(verify(secret, body, header, 300, t + 301));
  assert.not.ok(verify(secret, body, header, 300, t - 301));
  // A freshly timestamped signature made with the secret verifies (what the server does).
  const fresh = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  assert.is(fresh, header);
  for (const bad of [undefined, '', 'v1=abc', `t=${t}`, `t=x,v1=${header.split('v1=')[1]}`])
    assert.not.ok(verify(secret, body, bad), String(bad));
  // Several v1 (e.g. during a secret rotation): one match is enough.
  assert.ok(verify(secret, body, `${forger},v1=${header.split('v1=')[1]}`.replace(/^t=\d+/, `t=${t}`)));
});

test('the default retry schedule backs off exponentially over at least 24 hours', () => {
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
  assert.equal(loadConfig({}).webhooks, { retryScheduleMs: schedule, timeoutMs: 10_000, sourceIps: [] });
  assert.ok(totalScheduleMs(schedule) >= 24 * 3600_000, `${totalScheduleMs(schedule) / 3600_000} h`);
  assert.is(schedule[0], 60_000);
  for (let i = 1; i < schedule.length; i++) assert.ok(schedule[i]! >= schedule[i - 1]!);
  assert.equal(schedule.slice(0, 6), [60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]);
  // Jitter only lengthens, by at most 20 %.
  assert.is(
    nextDelayMs(schedule, 1, () => 0),
    60_000,
  );
  assert.is(
    nextDelayMs(schedule, 1, () => 0.999999),
    Math.round(60_000 * (1 + JITTER * 0.999999)),
  );
  assert.is(nextDelayMs(schedule, schedule.length + 1), undefined);
  assert.equal(parseRetrySchedule('1500,2s, 3m,1h,1d,0'), [1500, 2000, 180_000, 3_600_000, 86_400_000, 0]);
  assert.equal(parseRetrySchedule('none'), []);
  assert.throws(() => parseRetrySchedule('1m,soon'), /PIXGATE_WEBHOOK_RETRY_SCHEDULE/);
  assert.throws(() => loadConfig({ PIXGATE_WEBHOOK_TIMEOUT_MS: '0' }), /PIXGATE_WEBHOOK_TIMEOUT_MS/);
  assert.is(loadConfig({ PIXGATE_WEBHOOK_TIMEOUT_MS: '2500' }).webhooks.timeoutMs, 2500);
});

test('private, loopback, link-local and reserved addresses are recognised, in every spelling', () => {
  const refused = [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fc12::3',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    'not-an-ip',
  ];
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ];
  for (const a of refused) assert.ok(isPrivateAddress(a), `${a} should be refused`);
  for (const a of allowed) assert.not.ok(isPrivateAddress(a), `${a} should be allowed`);
});

test.run();
