// Webhook payloads say which API created the charge (charge.createdBy: PLATFORM_API for
// POST /api/v1/charge, PIX_API for the standard's cob) and what kind of account received it
// (account.environment: TESTING in sandbox mode, PRODUCTION otherwise), on every charge event.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHARGE_EXPIRY_JOB } from '../../src/charges/expiry.job';
import type { EventRow } from '../../src/db/schema';
import { webhookBodyOf as bodyOf } from '../../src/events/events.service';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { drain, startReceiver, type Receiver } from './receiver';

let server: TestServer;
let receiver: Receiver;
let c: TestCompany;
let bearer: string;

const EVENTS = ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED', 'OPENPIX:TRANSACTION_RECEIVED'];

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  receiver = await startReceiver();
  c = await createCompany(server.client);
  bearer = await pixToken(server.client, c);
  for (const event of [...EVENTS, 'OPENPIX:CHARGE_EXPIRED']) {
    const res = await server.client.post(
      '/api/v1/webhook',
      { webhook: { name: event, event, url: `${receiver.url}/${event}` } },
      { auth: c.appID },
    );
    assert.is(res.status, 200, res.text);
  }
});
test.after(async () => {
  await receiver.close();
  await server.close();
});

const bodiesOf = (identifier: string) =>
  receiver.requests.map((r) => r.json).filter((b) => b?.charge?.identifier === identifier);

async function pay(brCode: string): Promise<void> {
  const res = await server.client.post('/api/v1/sandbox/pay', {
    brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(res.status, 200, res.text);
}

test('a charge of the platform API: createdBy PLATFORM_API and a TESTING account on every event', async () => {
  const made = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'origem-1', value: 1500 },
    { auth: c.appID },
  );
  assert.is(made.status, 200, made.text);
  await pay(made.body.charge.brCode);
  await drain(server, 2);
  const bodies = bodiesOf(made.body.charge.identifier);
  assert.equal(bodies.map((b) => b.event).sort(), [...EVENTS].sort());
  for (const b of bodies) {
    assert.is(b.charge.createdBy, 'PLATFORM_API', b.event);
    assert.is(b.account.environment, 'TESTING', b.event);
  }
});

test('a cob of the Pix API: createdBy PIX_API, also when it expires', async () => {
  const txid = 'origemPixApi00000000000000001';
  const cob = await server.client.put(
    `/pix/v2/cob/${txid}`,
    { calendario: { expiracao: 3600 }, valor: { original: '25.00' }, chave: c.pixKey },
    { auth: bearer },
  );
  assert.is(cob.status, 201, cob.text);
  await pay(cob.body.pixCopiaECola);
  const expiring = 'origemPixApi00000000000000002';
  const other = await server.client.put(
    `/pix/v2/cob/${expiring}`,
    { calendario: { expiracao: 600 }, valor: { original: '9.90' }, chave: c.pixKey },
    { auth: bearer },
  );
  assert.is(other.status, 201, other.text);
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 601 }, { auth: c.appID });
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  await drain(server, 2);
  const paid = bodiesOf(txid);
  assert.equal(paid.map((b) => b.event).sort(), [...EVENTS].sort());
  for (const b of paid) assert.equal([b.charge.createdBy, b.account.environment], ['PIX_API', 'TESTING'], b.event);
  const expired = bodiesOf(expiring).find((b) => b.event === 'OPENPIX:CHARGE_EXPIRED');
  assert.equal([expired?.charge.createdBy, expired?.account.environment], ['PIX_API', 'TESTING']);
});

test('outside sandbox mode the account says PRODUCTION; bodies without an account are left as they are', () => {
  const event = {
    id: 'e1',
    company_id: 'c1',
    type: 'OPENPIX:CHARGE_CREATED',
    payload: { charge: { identifier: 'x', createdBy: 'PLATFORM_API' }, account: { accountId: 'a1' } },
    created_at: new Date(),
  } as unknown as EventRow;
  assert.equal(JSON.parse(bodyOf(event, 'PRODUCTION')).account, { accountId: 'a1', environment: 'PRODUCTION' });
  const movement = { ...event, type: 'OPENPIX:MOVEMENT_CONFIRMED', payload: { payment: { value: 1 } } } as EventRow;
  assert.equal(JSON.parse(bodyOf(movement, 'TESTING')), {
    event: 'OPENPIX:MOVEMENT_CONFIRMED',
    eventId: 'e1',
    payment: { value: 1 },
  });
});

test.run();
