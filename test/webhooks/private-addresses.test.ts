// Outside sandbox mode, webhook URLs pointing to private, loopback or link-local addresses are
// refused at registration (both APIs) and again at delivery, after DNS resolution.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pixToken } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, record, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let receiver: Receiver;
let company: { companyId: string; appID: string; key: string; bearer: string };

test.before(async () => {
  server = await startTestServer(
    { PIXGATE_SANDBOX: 'false', PIXGATE_WEBHOOK_RETRY_SCHEDULE: 'none' },
    { backgroundJobs: false },
  );
  receiver = await startReceiver();
  const made = await server.services.sandbox.createCompany({ name: 'Producao Ltda' });
  company = {
    companyId: made.company.id,
    appID: made.application.appID,
    key: made.pixKey.key,
    bearer: await pixToken(server.client, made.application),
  };
});
test.after(async () => {
  await receiver.close();
  await server.close();
});

const PRIVATE = [
  'http://127.0.0.1:8080/hook',
  'https://10.0.0.5/hook',
  'https://192.168.1.20/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]:3000/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://localhost:3000/hook',
  'http://api.localhost/hook',
  'http://0.0.0.0/hook',
  // IPv6 spellings of loopback and private IPv4 addresses: IPv4-compatible, 6to4, NAT64
  'http://[::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[::ffff:0:a00:1]/hook',
  'http://[2002:a9fe:a9fe::1]/latest/meta-data',
];

test('registration refuses private addresses on the platform API', async () => {
  for (const url of PRIVATE) {
    const res = await server.client.post(
      '/api/v1/webhook',
      { webhook: { name: 'x', event: 'OPENPIX:CHARGE_COMPLETED', url } },
      { auth: company.appID },
    );
    assert.is(res.status, 400, `${url}: ${res.text}`);
    assert.match(res.body.error, /^Webhook url must not point to a private, loopback or link-local address/);
  }
  // A public address literal is accepted (nothing is sent to it: no event happens).
  const ok = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'public', event: 'OPENPIX:CHARGE_EXPIRED', url: 'https://93.184.215.14/hook' } },
    { auth: company.appID },
  );
  assert.is(ok.status, 200, ok.text);
});

test('registration refuses private addresses on the Pix API, with the standard errors', async () => {
  for (const url of [...PRIVATE.slice(0, 4), 'http://[::127.0.0.1]/', 'http://[2002:7f00:1::]/']) {
    const res = await server.client.put(
      `/pix/v2/webhook/${company.key}`,
      { webhookUrl: url },
      { auth: company.bearer },
    );
    assert.is(res.status, 400, res.text);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida');
    assert.is(res.body.violacoes[0].propriedade, 'webhookUrl');
    const rec = await server.client.put('/pix/v2/webhookrec', { webhookUrl: url }, { auth: company.bearer });
    assert.is(rec.body.type, 'https://pix.bcb.gov.br/api/v2/error/WebhookRecOperacaoInvalida');
  }
});

test('delivery checks again after DNS resolution: a URL that turned private gets nothing', async () => {
  // Webhooks that were public when registered and now point (directly, or through a name
  // resolving) to this machine: written as a registration made earlier would be.
  const now = new Date();
  const port = new URL(receiver.url).port;
  const rows = [
    `${receiver.url}/literal`,
    receiver.url.replace('127.0.0.1', 'localhost') + '/by-name',
    `http://[::127.0.0.1]:${port}/compatible`,
    // Over mutual TLS the connection is checked the same way, before any handshake.
    `https://localhost:${port}/by-name-over-tls`,
    `https://127.0.0.1:${port}/literal-over-tls`,
  ].map((url, i) => ({
    id: `wh-private-${i}`,
    company_id: company.companyId,
    kind: 'platform' as const,
    event: 'OPENPIX:CHARGE_COMPLETED',
    chave: null,
    name: 'turned private',
    url,
    authorization: null,
    is_active: true,
    secret: 'whsec_x',
    created_at: now,
    updated_at: now,
  }));
  await server.database.db.insertInto('webhooks').values(rows).execute();
  await record(server, company.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { value: 1 } });
  await drain(server);
  assert.is(receiver.requests.length, 0);
  const attempts = await server.database.db
    .selectFrom('webhook_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .select([
      'webhook_deliveries.webhook_id',
      'webhook_deliveries.status',
      'webhook_attempts.status_code',
      'webhook_attempts.error',
    ])
    .where('webhook_deliveries.company_id', '=', company.companyId)
    // Not the test events the webhooks made by the API got when they were created.
    .where('webhook_deliveries.is_test', '=', false)
    .orderBy('webhook_deliveries.webhook_id')
    .execute();
  assert.equal(
    attempts.map((a) => [a.webhook_id, a.status, a.status_code]),
    [
      ['wh-private-0', 'FAILED', null],
      ['wh-private-1', 'FAILED', null],
      ['wh-private-2', 'FAILED', null],
      ['wh-private-3', 'FAILED', null],
      ['wh-private-4', 'FAILED', null],
    ],
  );
  assert.is(attempts[0]!.error, 'refused: 127.0.0.1 is a private address');
  assert.match(attempts[1]!.error!, /refused: localhost resolves to the private address (127\.0\.0\.1|::1)/);
  assert.is(attempts[2]!.error, 'refused: ::7f00:1 is a private address');
  assert.match(attempts[3]!.error!, /refused: localhost resolves to the private address (127\.0\.0\.1|::1)/);
  assert.is(attempts[4]!.error, 'refused: 127.0.0.1 is a private address');
});

test('a name that resolves (by DNS, not by its spelling) to a loopback address is refused at registration and at delivery', async () => {
  // The resolver answers 127.0.0.1 for this name, as a rebinding DNS would: patched through the
  // builtin module so that the server's own imports see it.
  const name = 'hooks.rebinding.example';
  const original = dns.lookup;
  let answer = '127.0.0.1';
  (dns as { lookup: unknown }).lookup = (host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    if (host !== name) return (original as (...args: unknown[]) => void)(host, options, callback);
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    const family = answer.includes(':') ? 6 : 4;
    return all ? callback(null, [{ address: answer, family }]) : callback(null, answer, family);
  };
  syncBuiltinESMExports();
  try {
    const port = new URL(receiver.url).port;
    const url = `http://${name}:${port}/rebound`;
    const res = await server.client.post(
      '/api/v1/webhook',
      { webhook: { name: 'x', event: 'OPENPIX:CHARGE_COMPLETED', url } },
      { auth: company.appID },
    );
    assert.is(res.status, 400, res.text);
    assert.is(
      res.body.error,
      `Webhook url must not point to a private, loopback or link-local address (${name} resolves to 127.0.0.1)`,
    );
    answer = '::1';
    const pix = await server.client.put(
      `/pix/v2/webhook/${company.key}`,
      { webhookUrl: url },
      { auth: company.bearer },
    );
    assert.equal(
      [pix.status, pix.body.type],
      [400, 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida'],
      pix.text,
    );
    // An AAAA answer that carries a loopback IPv4 address (NAT64, 6to4) is loopback too.
    for (const carried of ['64:ff9b::7f00:1', '2002:7f00:1::1']) {
      answer = carried;
      const res6 = await server.client.post(
        '/api/v1/webhook',
        { webhook: { name: 'x', event: 'OPENPIX:CHARGE_COMPLETED', url } },
        { auth: company.appID },
      );
      assert.is(res6.status, 400, res6.text);
      assert.match(res6.body.error, `(${name} resolves to ${carried})`);
    }
    // Public when registered, loopback when delivered: nothing is sent.
    answer = '93.184.215.14';
    const ok = await server.client.post(
      '/api/v1/webhook',
      { webhook: { name: 'x', event: 'OPENPIX:CHARGE_EXPIRED', url } },
      { auth: company.appID },
    );
    assert.is(ok.status, 200, ok.text);
    answer = '2002:7f00:1::';
    receiver.requests.length = 0;
    await record(server, company.companyId, 'OPENPIX:CHARGE_EXPIRED', { charge: { value: 1 } });
    await drain(server);
    assert.is(receiver.requests.length, 0);
    const log = await server.client.get(`/api/v1/webhook/${encodeURIComponent(ok.body.webhook.id)}/deliveries`, {
      auth: company.appID,
    });
    const [delivery] = log.body.deliveries;
    assert.equal([delivery.status, delivery.attempts.length, delivery.attempts[0].statusCode], ['FAILED', 1, null]);
    assert.equal(
      [delivery.isTest, delivery.attempts[0].error, delivery.attempts[0].errorClass],
      [false, `refused: ${name} resolves to the private address 2002:7f00:1::`, 'BLOCKED'],
    );
  } finally {
    (dns as { lookup: unknown }).lookup = original;
    syncBuiltinESMExports();
  }
});

test('sandbox routes are gone, webhooks are not', async () => {
  assert.is((await server.client.post('/api/v1/sandbox/companies', { name: 'x' })).status, 404);
  assert.is((await server.client.get('/api/v1/webhook', { auth: company.appID })).status, 200);
});

test.run();
