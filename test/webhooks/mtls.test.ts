// Webhooks over mutual TLS through the delivery worker: a paid cob's /pix callback reaches an
// https receiver that requires a client certificate and verifies pixgate's against the sandbox
// CA; the receiver's certificate is checked against the company's CA bundle (PUT
// /api/v1/webhook/tls). Each way the handshake fails (the receiver's CA unknown, its
// certificate expired or naming another host, a receiver that asks no client certificate or
// that trusts another CA for ours) is said in words in the delivery inspection, with what the
// handshake told; the probe without a client certificate is recorded when the company asks.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type Authority,
  createAuthority,
  generateRsaKeyPair,
  issueCertificate,
  issueServerCertificate,
  type LeafWithKey,
} from '../../src/lib/x509';
import { verifyRsaSignature } from '../../src/webhooks/signature';
import { pixToken } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain } from './receiver';

interface Company {
  appID: string;
  key: string;
  bearer: string;
}

interface Heard {
  path: string;
  authorized: boolean;
  subject: string;
  body: string;
  signature: string;
}

let server: TestServer;
let acme: Company;
let receiverCa: Authority;
let sandboxCa: string;
const servers: Server[] = [];
const LOOPBACK = { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] };

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h' }, { backgroundJobs: false });
  const res = await server.client.post('/api/v1/sandbox/companies', { name: 'Padaria Pao Dourado' });
  assert.is(res.status, 201, res.text);
  const { application, pixKey } = res.body;
  acme = { appID: application.appID, key: pixKey.key, bearer: await pixToken(server.client, application) };
  const ca = await server.client.get('/sandbox/ca.pem');
  assert.is(ca.status, 200, ca.text);
  sandboxCa = ca.text;
  receiverCa = await createAuthority('Aurora ERP Root CA', new Date());
  await settings(false);
});
test.after(async () => {
  for (const s of servers) s.closeAllConnections();
  for (const s of servers) s.close();
  await server.close();
});

async function settings(probeReceivers: boolean) {
  const set = await server.client.put(
    '/api/v1/webhook/tls',
    { caBundle: receiverCa.certificatePem, probeReceivers },
    { auth: acme.appID },
  );
  assert.is(set.status, 200, set.text);
}

interface ReceiverOptions {
  cert?: LeafWithKey;
  // Ask for a client certificate and refuse the handshake without a valid one (default);
  // 'ask': ask but let the request through; 'none': ask none.
  clientCertificate?: 'require' | 'ask' | 'none';
  // The CA the receiver trusts for client certificates (default: the sandbox's, GET /sandbox/ca.pem).
  clientCa?: string;
}

// An https receiver on 127.0.0.1; answers 200 and keeps what it heard.
async function receiver(options: ReceiverOptions = {}): Promise<{ url: string; heard: Heard[] }> {
  const heard: Heard[] = [];
  const cert = options.cert ?? (await issueServerCertificate(receiverCa, LOOPBACK, new Date()));
  const mode = options.clientCertificate ?? 'require';
  const https = createServer(
    {
      cert: cert.certificatePem,
      key: cert.privateKeyPem,
      requestCert: mode !== 'none',
      rejectUnauthorized: mode === 'require',
      ca: options.clientCa ?? sandboxCa,
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        heard.push({
          path: req.url ?? '',
          authorized: socket.authorized,
          subject: String(socket.getPeerCertificate()?.subject?.CN ?? ''),
          body,
          signature: String(req.headers['x-webhook-signature'] ?? ''),
        });
        res.end('ok');
      });
    },
  );
  https.on('tlsClientError', () => undefined);
  servers.push(https);
  await new Promise<void>((ok) => https.listen(0, '127.0.0.1', ok));
  return { url: `https://127.0.0.1:${(https.address() as AddressInfo).port}/erp`, heard };
}

// Points the key's Pix webhook at `url`, has a cob paid, runs the worker once and answers the
// delivery of that payment's callback, read in full.
async function payTo(url: string) {
  const put = await server.client.put(`/pix/v2/webhook/${acme.key}`, { webhookUrl: url }, { auth: acme.bearer });
  assert.is(put.status, 200, put.text);
  const cob = await server.client.post(
    '/pix/v2/cob',
    { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: acme.key },
    { auth: acme.bearer },
  );
  assert.is(cob.status, 201, cob.text);
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode: cob.body.pixCopiaECola,
    payer: { name: 'Ana Souza', taxID: '52998224725' },
  });
  assert.is(paid.status, 200, paid.text);
  await drain(server);
  const hooks = await server.client.get('/api/v1/pix-webhooks', { auth: acme.appID });
  const id = encodeURIComponent(hooks.body.webhooks.find((w: { chave?: string }) => w.chave === acme.key).id);
  const log = await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries?limit=100`, { auth: acme.appID });
  assert.is(log.status, 200, log.text);
  const deliveries = await Promise.all(
    log.body.deliveries.map(async (d: { id: string }) => {
      const res = await server.client.get(`/api/v1/pix-webhooks/${id}/deliveries/${d.id}`, { auth: acme.appID });
      assert.is(res.status, 200, res.text);
      return res.body.delivery;
    }),
  );
  const delivery = deliveries.find((d) => JSON.parse(d.body).pix[0].txid === cob.body.txid);
  assert.ok(delivery, `no delivery of the payment of ${cob.body.txid}: ${log.text}`);
  return { delivery, attempt: delivery.attempts[delivery.attempts.length - 1], txid: cob.body.txid as string };
}

test('a receiver that requires and verifies a client certificate gets the /pix callback', async () => {
  const { url, heard } = await receiver();
  const { delivery, attempt, txid } = await payTo(url);
  assert.is(heard.length, 1);
  assert.equal([heard[0]!.path, heard[0]!.authorized], ['/erp/pix', true]);
  assert.match(heard[0]!.subject, /^pixgate webhooks/);
  const body = JSON.parse(heard[0]!.body);
  assert.equal([body.pix.length, body.pix[0].txid, body.pix[0].valor], [1, txid, '12.34']);
  const keys = (await server.client.get('/api/v1/webhook/public-keys', { auth: acme.appID })).body.keys;
  assert.ok(verifyRsaSignature(keys[0].pem, heard[0]!.body, heard[0]!.signature), 'signed as over plain http');
  assert.is(delivery.status, 'SUCCEEDED');
  assert.equal([attempt.error, attempt.response.statusCode, attempt.probe], [null, 200, null]);
  assert.equal(
    { ...attempt.tls, protocol: 'x' },
    { protocol: 'x', presentedCertificate: true, askedClientCertificate: true },
  );
  assert.match(attempt.tls.protocol, /^TLSv1\.[23]$/);
});

async function expired(): Promise<LeafWithKey> {
  const keys = await generateRsaKeyPair();
  const certificatePem = await issueCertificate({
    authority: receiverCa,
    publicKey: keys.publicKey,
    subject: [{ CN: ['localhost'] }],
    notBefore: new Date(Date.now() - 3 * 86_400_000),
    notAfter: new Date(Date.now() - 86_400_000),
    usage: 'server',
    ...LOOPBACK,
  });
  return { certificatePem, privateKeyPem: keys.privateKeyPem };
}

const CASES: { name: string; options: () => Promise<ReceiverOptions>; code: string | RegExp; reason: RegExp }[] = [
  {
    name: "the receiver's certificate is from a CA the company did not register",
    options: async () => ({
      cert: await issueServerCertificate(await createAuthority('Stranger CA', new Date()), LOOPBACK, new Date()),
    }),
    code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    reason: /^TLS: the server's certificate is not signed by a known authority; .*PUT \/api\/v1\/webhook\/tls/,
  },
  {
    name: "the receiver's certificate has expired",
    options: async () => ({ cert: await expired() }),
    code: 'CERT_HAS_EXPIRED',
    reason: /^TLS: the server's certificate has expired/,
  },
  {
    name: "the receiver's certificate names another host",
    options: async () => ({
      cert: await issueServerCertificate(receiverCa, { dnsNames: ['hooks.example.com'], ipAddresses: [] }, new Date()),
    }),
    code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    reason: /not valid for this host name \(name mismatch\)/,
  },
  {
    name: 'the receiver asks no client certificate',
    options: async () => ({ clientCertificate: 'none' }),
    code: 'ERR_PIXGATE_NO_CLIENT_CERTIFICATE_REQUEST',
    reason: /^TLS: the receiver asked no client certificate: it does not check mutual TLS/,
  },
  {
    name: "the receiver trusts another CA for client certificates: it refuses pixgate's",
    options: async () => ({ clientCa: (await createAuthority('Only this CA', new Date())).certificatePem }),
    code: /./,
    reason:
      /^TLS: .*(does not trust the authority of pixgate's client certificate|refused (it|our client certificate))/,
  },
];

for (const c of CASES) {
  test(`in words in the delivery inspection: ${c.name}`, async () => {
    const { url, heard } = await receiver(await c.options());
    const { delivery, attempt } = await payTo(url);
    assert.is(heard.length, 0, 'nothing reached the receiver');
    assert.is(delivery.status, 'PENDING', 'retried on the schedule');
    assert.is(attempt.error?.class, 'TLS', JSON.stringify(attempt));
    if (typeof c.code === 'string') assert.is(attempt.error.code, c.code);
    else assert.match(attempt.error.code ?? '', c.code);
    assert.match(attempt.error.reason, c.reason);
    assert.is(attempt.response, null);
    assert.is(attempt.tls.presentedCertificate, true);
    if (c.code === 'ERR_PIXGATE_NO_CLIENT_CERTIFICATE_REQUEST') assert.is(attempt.tls.askedClientCertificate, false);
  });
}

test('probing: a receiver that lets a caller without a certificate through is recorded', async () => {
  await settings(true);
  try {
    const lax = await receiver({ clientCertificate: 'ask' });
    const first = await payTo(lax.url);
    assert.is(first.delivery.status, 'SUCCEEDED', 'delivered all the same');
    assert.is(first.attempt.probe.acceptedWithoutCertificate, true, JSON.stringify(first.attempt.probe));
    assert.is(first.attempt.probe.askedClientCertificate, true);
    assert.match(first.attempt.probe.detail, /accepted a connection without a client certificate/);
    // The probe's HEAD plus the delivery; only the delivery carried pixgate's certificate.
    assert.equal(
      lax.heard.map((h) => h.authorized),
      [false, true],
    );
    const strict = await receiver();
    const second = await payTo(strict.url);
    assert.is(second.delivery.status, 'SUCCEEDED');
    assert.equal(
      [second.attempt.probe.acceptedWithoutCertificate, strict.heard.length],
      [false, 1],
      JSON.stringify(second.attempt.probe),
    );
    assert.match(second.attempt.probe.detail, /refused a connection without a client certificate/);
  } finally {
    await settings(false);
  }
});

test.run();
