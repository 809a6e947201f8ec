// Webhooks over mutual TLS (src/tls/webhook-tls.service.ts) against real local TLS receivers:
// pixgate presents its client certificate and the receiver verifies it; each way a handshake
// fails is said in words (unknown CA, name mismatch, expired, receiver asked no client
// certificate, receiver refused ours, on TLS 1.2 and 1.3); the probe without a certificate;
// and the company's settings (its CA bundle, probing) through the platform API.
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
} from '../../src/lib/x509';
import { probeReceiver, type ReceiverTls, sendOverMtls } from '../../src/tls/webhook-tls.service';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let company: TestCompany;
let receiverCa: Authority;
let pixgateCa: string;
const receivers: Server[] = [];
const LOOPBACK = { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] };

interface Heard {
  authorized: boolean;
  subject: string | undefined;
  body: string;
}

interface ReceiverOptions {
  cert: { certificatePem: string; privateKeyPem: string };
  requestCert: boolean;
  rejectUnauthorized: boolean;
  // The CA the receiver trusts for client certificates (default: pixgate's).
  clientCa?: string;
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
  // Answer 403 at the HTTP level when the client certificate did not verify.
  checkAtHttp?: boolean;
}

async function receiver(options: ReceiverOptions): Promise<{ url: URL; heard: Heard[] }> {
  const heard: Heard[] = [];
  const https = createServer(
    {
      cert: options.cert.certificatePem,
      key: options.cert.privateKeyPem,
      requestCert: options.requestCert,
      rejectUnauthorized: options.rejectUnauthorized,
      ca: options.clientCa ?? pixgateCa,
      ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        heard.push({
          authorized: socket.authorized,
          subject: String(socket.getPeerCertificate()?.subject?.CN ?? ''),
          body,
        });
        res.statusCode = options.checkAtHttp && !socket.authorized ? 403 : 200;
        res.end('ok');
      });
    },
  );
  https.on('tlsClientError', () => undefined);
  await new Promise<void>((ok) => https.listen(0, '127.0.0.1', ok));
  receivers.push(https);
  return { url: new URL(`https://127.0.0.1:${(https.address() as AddressInfo).port}/hooks/pix`), heard };
}

async function serverCert(authority: Authority, hosts = LOOPBACK) {
  return issueServerCertificate(authority, hosts, new Date());
}

async function tlsOf(): Promise<ReceiverTls> {
  return server.services.webhookTls.receiverTls(company.companyId);
}

const send = async (url: URL) =>
  sendOverMtls(await tlsOf(), {
    url,
    body: '{"pix":[]}',
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 5000,
  });

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
  pixgateCa = await server.services.tlsAuthority.caCertificatePem();
  receiverCa = await createAuthority('Receiver Root CA', new Date());
  const set = await server.client.put(
    '/api/v1/webhook/tls',
    { caBundle: receiverCa.certificatePem, probeReceivers: false },
    { auth: company.appID },
  );
  assert.is(set.status, 200, set.text);
});
test.after(async () => {
  for (const r of receivers) r.close();
  await server.close();
});

test('settings: read, replaced, refused when not PEM, and used at once', async () => {
  const read = await server.client.get('/api/v1/webhook/tls', { auth: company.appID });
  assert.is(read.status, 200, read.text);
  assert.is(read.body.settings.caCertificates.length, 1);
  assert.match(read.body.settings.caCertificates[0].subject, /Receiver Root CA/);
  const bad = await server.client.put(
    '/api/v1/webhook/tls',
    { caBundle: 'hello', probeReceivers: true },
    { auth: company.appID },
  );
  assert.is(bad.status, 400);
  assert.match(bad.body.error, /holds no PEM certificate/);
  const other = await createCompany(server.client);
  const defaults = await server.client.get('/api/v1/webhook/tls', { auth: other.appID });
  assert.equal(defaults.body.settings, { caCertificates: [], probeReceivers: false });
  assert.ok((await tlsOf()).ca.includes(receiverCa.certificatePem));
});

test('a receiver over mTLS gets the call and verifies pixgate’s client certificate', async () => {
  const { url, heard } = await receiver({
    cert: await serverCert(receiverCa),
    requestCert: true,
    rejectUnauthorized: true,
  });
  const answer = await send(url);
  assert.equal(
    { ok: answer.ok, statusCode: answer.statusCode, error: answer.error, asked: answer.askedClientCertificate },
    { ok: true, statusCode: 200, error: null, asked: true },
  );
  assert.is(heard.length, 1);
  assert.is(heard[0]!.authorized, true);
  assert.match(heard[0]!.subject ?? '', /pixgate webhooks/);
  assert.is(heard[0]!.body, '{"pix":[]}');
});

test('unknown CA: the receiver’s certificate chains to no trusted CA', async () => {
  const stranger = await createAuthority('Stranger CA', new Date());
  const { url, heard } = await receiver({
    cert: await serverCert(stranger),
    requestCert: true,
    rejectUnauthorized: true,
  });
  const answer = await send(url);
  assert.is(answer.ok, false);
  assert.match(answer.error!, /receiver's certificate was issued by an unknown CA/);
  assert.is(heard.length, 0);
});

test('name mismatch: the receiver’s certificate names another host', async () => {
  const cert = await serverCert(receiverCa, { dnsNames: ['hooks.example.com'], ipAddresses: ['10.9.9.9'] });
  const { url } = await receiver({ cert, requestCert: true, rejectUnauthorized: true });
  assert.match((await send(url)).error!, /does not name the host.*name mismatch/);
});

test('expired: the receiver’s certificate has expired', async () => {
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
  const { url } = await receiver({
    cert: { certificatePem, privateKeyPem: keys.privateKeyPem },
    requestCert: true,
    rejectUnauthorized: true,
  });
  assert.match((await send(url)).error!, /receiver's certificate has expired/);
});

for (const maxVersion of ['TLSv1.2', 'TLSv1.3'] as const) {
  test(`${maxVersion}: a receiver that asks no client certificate is refused before the body is sent`, async () => {
    const { url, heard } = await receiver({
      cert: await serverCert(receiverCa),
      requestCert: false,
      rejectUnauthorized: false,
      maxVersion,
    });
    const answer = await send(url);
    assert.is(answer.ok, false);
    assert.match(answer.error!, /receiver asked no client certificate/);
    assert.is(heard.length, 0, 'nothing was delivered');
  });

  test(`${maxVersion}: a receiver that refuses our client certificate`, async () => {
    const other = await createAuthority('Only this CA', new Date());
    const { url, heard } = await receiver({
      cert: await serverCert(receiverCa),
      requestCert: true,
      rejectUnauthorized: true,
      clientCa: other.certificatePem,
      maxVersion,
    });
    const answer = await send(url);
    assert.is(answer.ok, false);
    assert.match(answer.error!, /refused (it|our client certificate)/);
    assert.is(heard.length, 0);
  });
}

test('probe: a receiver that requires a certificate refuses the probe; one that does not accepts it', async () => {
  const tls = await tlsOf();
  const probe = (url: URL) => probeReceiver(url, tls, { timeoutMs: 5000 });
  const strict = await receiver({ cert: await serverCert(receiverCa), requestCert: true, rejectUnauthorized: true });
  const lax = await receiver({ cert: await serverCert(receiverCa), requestCert: true, rejectUnauthorized: false });
  const none = await receiver({ cert: await serverCert(receiverCa), requestCert: false, rejectUnauthorized: false });
  const atHttp = await receiver({
    cert: await serverCert(receiverCa),
    requestCert: true,
    rejectUnauthorized: false,
    checkAtHttp: true,
  });
  const strictResult = await probe(strict.url);
  assert.is(strictResult.acceptedWithoutCertificate, false, strictResult.detail);
  assert.match(strictResult.detail, /refused a connection without a client certificate/);
  const laxResult = await probe(lax.url);
  assert.equal([laxResult.acceptedWithoutCertificate, laxResult.askedClientCertificate], [true, true]);
  assert.match(laxResult.detail, /asked for one but did not require it/);
  const noneResult = await probe(none.url);
  assert.equal([noneResult.acceptedWithoutCertificate, noneResult.askedClientCertificate], [true, false]);
  const httpResult = await probe(atHttp.url);
  assert.is(httpResult.acceptedWithoutCertificate, false, httpResult.detail);
  assert.match(httpResult.detail, /answered 403/);
  assert.is(strict.heard.length, 0);
});

test.run();
