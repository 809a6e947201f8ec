// End to end through the public APIs: a charge paid in the sandbox produces exactly one
// OPENPIX:CHARGE_COMPLETED (platform) and one {webhookUrl}/pix callback (Pix API), both with
// valid signatures; moving the sandbox clock past an expiry produces OPENPIX:CHARGE_EXPIRED.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHARGE_EXPIRY_JOB } from '../../src/charges/expiry.job';
import { verifyHmacSignature, verifyRsaSignature } from '../../src/webhooks/signature';
import { pixToken } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let receiver: Receiver;
let company: { appID: string; key: string; bearer: string };
let publicKeyPem: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  receiver = await startReceiver();
  const res = await server.client.post('/api/v1/sandbox/companies', { name: 'Aurora Moda' });
  assert.is(res.status, 201, res.text);
  company = {
    appID: res.body.application.appID,
    key: res.body.pixKey.key,
    bearer: await pixToken(server.client, res.body.application),
  };
  publicKeyPem = (await server.client.get('/api/v1/webhook/public-keys', { auth: company.appID })).body.keys[0].pem;
});
test.after(async () => {
  await receiver.close();
  await server.close();
});

const at = (path: string) => receiver.requests.filter((r) => r.path === path);

test('a paid charge: exactly one CHARGE_COMPLETED and one /pix callback, both signed', async () => {
  const platform = await server.client.post(
    '/api/v1/webhook',
    {
      webhook: {
        name: 'erp',
        event: 'OPENPIX:CHARGE_COMPLETED',
        url: `${receiver.url}/platform`,
        authorization: 'Bearer erp',
      },
    },
    { auth: company.appID },
  );
  assert.is(platform.status, 200, platform.text);
  const pixPut = await server.client.put(
    `/pix/v2/webhook/${company.key}`,
    { webhookUrl: `${receiver.url}/erp` },
    { auth: company.bearer },
  );
  assert.is(pixPut.status, 200, pixPut.text);
  const pixSecret = pixPut.headers.get('x-pixgate-webhook-secret')!;

  const charge = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'pedido-10482', value: 4590 },
    { auth: company.appID },
  );
  assert.is(charge.status, 200, charge.text);
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: charge.body.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(pay.status, 200, pay.text);
  // Paying it again is refused: nothing more happens, nothing more is notified.
  const again = await server.client.post('/api/v1/sandbox/pay', {
    brCode: charge.body.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.ok(again.status >= 400, again.text);
  await drain(server, 3);

  const completed = at('/platform');
  assert.is(completed.length, 1);
  const c = completed[0]!;
  assert.is(c.json.event, 'OPENPIX:CHARGE_COMPLETED');
  assert.is(c.json.eventId, c.headers['x-pixgate-event-id']);
  assert.equal(
    Object.keys(c.json)
      .filter((k) => ['charge', 'pix', 'company', 'account'].includes(k))
      .sort(),
    ['account', 'charge', 'company', 'pix'],
  );
  assert.equal(
    [c.json.charge.correlationID, c.json.charge.status, c.json.charge.value],
    ['pedido-10482', 'COMPLETED', 4590],
  );
  assert.is(c.headers['authorization'], 'Bearer erp');
  assert.equal(verifyHmacSignature(platform.body.webhook.secret, c.body, c.headers['x-pixgate-signature'] as string), {
    ok: true,
  });
  assert.ok(verifyRsaSignature(publicKeyPem, c.body, c.headers['x-webhook-signature'] as string));

  const callbacks = at('/erp/pix');
  assert.is(callbacks.length, 1);
  const p = callbacks[0]!;
  assert.is(p.json.pix.length, 1);
  assert.equal(
    [p.json.pix[0].endToEndId, p.json.pix[0].txid, p.json.pix[0].valor, p.json.pix[0].chave],
    [pay.body.endToEndId, charge.body.charge.transactionID, '45.90', company.key],
  );
  assert.equal(verifyHmacSignature(pixSecret, p.body, p.headers['x-pixgate-signature'] as string), { ok: true });
  assert.ok(verifyRsaSignature(publicKeyPem, p.body, p.headers['x-webhook-signature'] as string));
  assert.is.not(p.headers['x-pixgate-event-id'], c.headers['x-pixgate-event-id']);
  assert.is(receiver.requests.length, 2);
});

test('advancing the sandbox clock past an expiry delivers CHARGE_EXPIRED', async () => {
  receiver.requests.length = 0;
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'expired', event: 'OPENPIX:CHARGE_EXPIRED', url: `${receiver.url}/expired` } },
    { auth: company.appID },
  );
  assert.is(hook.status, 200, hook.text);
  const charge = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'pedido-expira', value: 1000, expiresIn: 600 },
    { auth: company.appID },
  );
  assert.is(charge.status, 200, charge.text);
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  await drain(server);
  assert.equal(at('/expired'), []);
  const moved = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 601 }, { auth: company.appID });
  assert.is(moved.status, 200, moved.text);
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  await drain(server, 2);
  const expired = at('/expired');
  assert.is(expired.length, 1);
  assert.equal(
    [expired[0]!.json.event, expired[0]!.json.charge.correlationID],
    ['OPENPIX:CHARGE_EXPIRED', 'pedido-expira'],
  );
  assert.equal(
    verifyHmacSignature(
      hook.body.webhook.secret,
      expired[0]!.body,
      expired[0]!.headers['x-pixgate-signature'] as string,
    ),
    { ok: true },
  );
  // Exactly one: the clock moving further and the job running again notify nothing more.
  assert.is(
    (await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 86_400 }, { auth: company.appID })).status,
    200,
  );
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  await drain(server, 2);
  assert.is(at('/expired').length, 1);
});

test.run();
