// Delivery inspection: every attempt keeps what was sent (URL, headers with the webhook's
// Authorization masked and the signatures in full; never the signing secret) and what came
// back (status, headers, the first 8 KB of the body), or why it failed, classified and said
// in words (refused, timeout, DNS, an HTTP status, TLS). Read one delivery in full; the events
// API summarises it.
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { webcrypto } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
let receiver: Receiver;
const servers: Server[] = [];

test.before(async () => {
  server = await startTestServer(
    { PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h', PIXGATE_WEBHOOK_TIMEOUT_MS: '1500' },
    { backgroundJobs: false },
  );
  acme = await createCompany(server.client);
  other = await createCompany(server.client, { name: 'Outra Empresa' });
  receiver = await startReceiver();
});
test.after(async () => {
  for (const s of servers) s.close();
  await receiver.close();
  await server.close();
});

async function listen(s: Server, scheme = 'http'): Promise<string> {
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return `${scheme}://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

async function webhook(company: TestCompany, event: string, url: string, extra: Record<string, unknown> = {}) {
  const res = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: event, event, url, ...extra } },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  return res.body.webhook as { id: string; secret: string };
}

// The delivery of `eventId` to the webhook, read in full.
async function detail(company: TestCompany, webhookId: string, eventId: string) {
  const id = encodeURIComponent(webhookId);
  const log = await server.client.get(`/api/v1/webhook/${id}/deliveries`, { auth: company.appID });
  assert.is(log.status, 200, log.text);
  const found = log.body.deliveries.find((d: { eventId: string }) => d.eventId === eventId);
  assert.ok(found, `no delivery of ${eventId}: ${log.text}`);
  const res = await server.client.get(`/api/v1/webhook/${id}/deliveries/${found.id}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return { compact: found, delivery: res.body.delivery };
}

test('an attempt keeps the request (authorization masked, signatures in full) and the first 8 KB of the answer', async () => {
  const big = 'x'.repeat(20_000);
  const got: { headers: Record<string, unknown>; body: string }[] = [];
  const url = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.headers['x-pixgate-test'] !== '1') got.push({ headers: req.headers, body });
        res.writeHead(202, { 'x-receiver': 'erp-7', 'content-type': 'text/plain' });
        res.end(big);
      });
    }),
  );
  const w = await webhook(acme, 'OPENPIX:CHARGE_COMPLETED', `${url}/hooks?src=pixgate`, {
    authorization: 'Bearer s3cr3t-token-987654',
  });
  const eventId = await record(server, acme.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { value: 1 } });
  await drain(server);
  assert.is(got.length, 1);
  const { compact, delivery } = await detail(acme, w.id, eventId);
  assert.equal(
    [compact.status, compact.attempts[0].statusCode, compact.attempts[0].errorClass],
    ['SUCCEEDED', 202, null],
  );
  assert.equal(
    [delivery.eventId, delivery.event, delivery.isTest, delivery.status, delivery.attempts.length],
    [eventId, 'OPENPIX:CHARGE_COMPLETED', false, 'SUCCEEDED', 1],
  );
  assert.is(delivery.body, got[0]!.body, 'the exact body');
  const [attempt] = delivery.attempts;
  assert.is(attempt.request.url, `${url}/hooks?src=pixgate`);
  const sent = attempt.request.headers;
  assert.is(sent.Authorization, 'Bearer ****7654');
  assert.is(sent['X-Pixgate-Signature'], got[0]!.headers['x-pixgate-signature']);
  assert.is(sent['x-webhook-signature'], got[0]!.headers['x-webhook-signature']);
  assert.is(sent['X-Pixgate-Event-Id'], eventId);
  assert.equal(
    [attempt.response.statusCode, attempt.response.headers['x-receiver'], attempt.response.bodyTruncated],
    [202, 'erp-7', true],
  );
  assert.is(attempt.response.body, big.slice(0, 8192));
  assert.is(attempt.error, null);
  assert.ok(attempt.durationMs >= 0);
  // Neither the webhook's secret nor its authorization is in the log.
  const stored = await server.database.db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.cast<string>('request_headers', 'text').as('h'))
    .where('url', '=', `${url}/hooks?src=pixgate`)
    .execute();
  assert.ok(stored.length > 0);
  for (const { h } of stored) assert.ok(!h.includes(w.secret) && !h.includes('s3cr3t'), h);
  // The event names this delivery and its last answer.
  const event = await server.client.get(`/api/v1/events/${eventId}`, { auth: acme.appID });
  assert.equal(
    event.body.event.deliveries.map((d: any) => [d.id, d.attempts, d.lastStatusCode, d.lastErrorClass]),
    [[delivery.id, 1, 202, null]],
  );
  // Another company's delivery is not found, nor one read under another webhook.
  const path = `/api/v1/webhook/${encodeURIComponent(w.id)}/deliveries/${delivery.id}`;
  assert.equal((await server.client.get(path, { auth: other.appID })).body, { error: 'Delivery not found' });
  const mine = await webhook(acme, 'OPENPIX:CHARGE_EXPIRED', `${url}/other`);
  const wrong = `/api/v1/webhook/${encodeURIComponent(mine.id)}/deliveries/${delivery.id}`;
  assert.is((await server.client.get(wrong, { auth: acme.appID })).status, 404);
});

// A server with a self-signed certificate for 127.0.0.1 (nobody's authority).
async function selfSignedServer(): Promise<string> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: '01',
      name: 'CN=127.0.0.1',
      notBefore: new Date(Date.now() - 3_600_000),
      notAfter: new Date(Date.now() + 3_600_000),
      keys,
      signingAlgorithm: alg,
      extensions: [new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }])],
    },
    webcrypto,
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
  return listen(
    createTlsServer({ key, cert: cert.toString('pem') }, (_req, res) => res.end('ok')),
    'https',
  );
}

test('failures are classified, with their reason in words', async () => {
  receiver.respond = (req) => (req.path.startsWith('/slow') ? { status: 200, delayMs: 3000 } : 503);
  const closed = await startReceiver();
  await closed.close();
  const plain = await listen(createServer((_req, res) => res.end('plain')));
  const tls = await selfSignedServer();
  const cases = [
    { url: `${closed.url}/refused`, class: 'REFUSED', reason: /^connection refused by 127\.0\.0\.1:\d+/ },
    { url: `${receiver.url}/slow`, class: 'TIMEOUT', reason: /^no answer within 1500 ms/ },
    {
      url: 'http://pixgate-webhook-test.invalid/hook',
      class: 'DNS',
      reason: /^DNS: the (name|lookup of) pixgate-webhook-test\.invalid/,
    },
    { url: `${receiver.url}/busy`, class: 'HTTP_STATUS', reason: /^the receiver answered HTTP 503, not 2xx$/ },
    { url: `${tls}/self-signed`, class: 'TLS', reason: /^TLS: the server's certificate is self-signed/ },
    {
      url: `${plain.replace('http:', 'https:')}/not-tls`,
      class: 'TLS',
      reason: /^TLS: the server does not speak TLS on this port/,
    },
  ];
  const hooks = [];
  for (const c of cases) hooks.push(await webhook(acme, 'OPENPIX:MOVEMENT_REMOVED', c.url));
  const eventId = await record(server, acme.companyId, 'OPENPIX:MOVEMENT_REMOVED', { payment: { value: 1 } });
  await drain(server);
  for (const [i, c] of cases.entries()) {
    const { compact, delivery } = await detail(acme, hooks[i]!.id, eventId);
    const [attempt] = delivery.attempts;
    assert.is(attempt.error?.class, c.class, `${c.url}: ${JSON.stringify(attempt)}`);
    assert.match(attempt.error.reason, c.reason, c.url);
    assert.equal([compact.attempts[0].errorClass, compact.attempts[0].error], [c.class, attempt.error.reason]);
    assert.is(delivery.status, 'PENDING', 'retried on the schedule');
    if (c.class === 'HTTP_STATUS') assert.equal([attempt.response.statusCode, attempt.response.body], [503, '{}']);
    else assert.is(attempt.response, null, c.url);
  }
  const tlsAttempt = (await detail(acme, hooks[4]!.id, eventId)).delivery.attempts[0];
  assert.is(tlsAttempt.error.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
  const event = await server.client.get(`/api/v1/events/${eventId}`, { auth: acme.appID });
  assert.equal(event.body.event.deliveries.map((d: any) => d.lastErrorClass).sort(), cases.map((c) => c.class).sort());
  receiver.respond = () => 200;
});

test.run();
