// One object's webhooks go out in order, however many deliveries run at once: a charge's
// CREATED reaches the receiver before its COMPLETED, while the worker sends other charges'
// concurrently. A later delivery waits while an earlier one of its object waits for its first
// attempt or is being attempted (a second worker finds nothing to send then); once the
// earlier one has been attempted, failed or not, the later one goes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordEvent } from '../../src/events/events.repository';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { OUTBOX_CHANGE } from '../../src/webhooks/delivery.service';
import { drain } from './receiver';

interface Heard {
  event: string;
  charge: string;
}

let server: TestServer;
let acme: TestCompany;
let http: Server;
let url: string;
const heard: Heard[] = [];
// How the receiver answers each request (default 200 at once).
let answer: (h: Heard) => Promise<number> = async () => 200;

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: '1h' }, { backgroundJobs: false });
  acme = await createCompany(server.client);
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      if (req.headers['x-pixgate-test'] === '1') return res.end();
      const json = JSON.parse(body);
      const h = { event: json.event, charge: json.charge.globalID };
      heard.push(h);
      res.statusCode = await answer(h);
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  for (const event of ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED']) {
    const res = await server.client.post(
      '/api/v1/webhook',
      { webhook: { name: event, event, url: `${url}/hooks` } },
      { auth: acme.appID },
    );
    assert.is(res.status, 200, res.text);
  }
  await drain(server);
});
test.after(async () => {
  http.closeAllConnections();
  http.close();
  await server.close();
});
test.before.each(() => {
  heard.length = 0;
  answer = async () => 200;
});

// The events of `charges`: every CREATED, then every COMPLETED, each a moment after the last
// (the outbox's order is the events' time).
async function recordLifecycles(charges: string[]): Promise<void> {
  const base = Date.now();
  const types = ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED'];
  for (const [t, type] of types.entries())
    for (const [i, globalID] of charges.entries())
      await server.database.db.transaction().execute((trx) =>
        recordEvent(trx, {
          companyId: acme.companyId,
          type,
          payload: { charge: { globalID, correlationID: globalID, value: 100 } },
          at: new Date(base + t * 1000 + i),
        }),
      );
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await sleep(10);
  assert.ok(done(), 'condition not met');
}

test('while a CREATED is at the receiver, its COMPLETED is not sent, by this worker or another', async () => {
  let release!: () => void;
  const held = new Promise<void>((ok) => (release = ok));
  answer = async (h) => {
    if (h.event === 'OPENPIX:CHARGE_CREATED') await held;
    return 200;
  };
  await recordLifecycles(['Q2hhcmdlOm9uZQ==']);
  const first = server.services.jobs.runNow('webhooks');
  await until(() => heard.length === 1);
  assert.equal(heard[0], { event: 'OPENPIX:CHARGE_CREATED', charge: 'Q2hhcmdlOm9uZQ==' });
  // A second worker run (as another process's would) finds the COMPLETED held back.
  const second = await server.services.webhookDelivery.runOnce();
  assert.is(second.attempted, 0);
  assert.is(heard.length, 1);
  release();
  await first;
  assert.equal(
    heard.map((h) => h.event),
    ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED'],
  );
});

test('many charges at once: each one’s CREATED arrives before its COMPLETED', async () => {
  const charges = Array.from({ length: 30 }, (_, i) => `Q2hhcmdl${i}`);
  // CREATED answered a little later than COMPLETED: without the order kept, concurrency would
  // let COMPLETED overtake it.
  answer = async (h) => {
    await sleep(h.event === 'OPENPIX:CHARGE_CREATED' ? 5 : 0);
    return 200;
  };
  await recordLifecycles(charges);
  await drain(server);
  assert.is(heard.length, 60);
  for (const charge of charges) {
    const order = heard.filter((h) => h.charge === charge).map((h) => h.event);
    assert.equal(order, ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED'], charge);
  }
});

test('a CREATED whose first attempt failed does not hold its COMPLETED back', async () => {
  answer = async (h) => (h.event === 'OPENPIX:CHARGE_CREATED' ? 500 : 200);
  await recordLifecycles(['Q2hhcmdlOmZhaWxz']);
  await drain(server);
  assert.equal(
    heard.map((h) => h.event),
    ['OPENPIX:CHARGE_CREATED', 'OPENPIX:CHARGE_COMPLETED'],
  );
  const pending = await server.database.db
    .selectFrom('webhook_deliveries')
    .select(['event_type', 'status'])
    .where('object_id', '=', 'Q2hhcmdlOmZhaWxz')
    .orderBy('seq')
    .execute();
  assert.equal(pending, [
    { event_type: 'OPENPIX:CHARGE_CREATED', status: 'PENDING' },
    { event_type: 'OPENPIX:CHARGE_COMPLETED', status: 'SUCCEEDED' },
  ]);
});

test('a committed event is announced on the change feed at its commit (it wakes the worker); a rolled-back one never', async () => {
  const announced: string[] = [];
  server.database.changes.subscribe((payload) => {
    if (payload === OUTBOX_CHANGE) announced.push(payload);
  });
  const event = (globalID: string) => ({
    companyId: acme.companyId,
    type: 'OPENPIX:CHARGE_CREATED',
    payload: { charge: { globalID, value: 100 } },
    at: new Date(),
  });
  const undone = await server.database.db
    .transaction()
    .execute(async (trx) => {
      await recordEvent(trx, event('Q2hhcmdlOnVuZG9uZQ=='));
      throw new Error('rolled back');
    })
    .catch((err: Error) => err.message);
  assert.is(undone, 'rolled back');
  await server.database.db.transaction().execute((trx) => recordEvent(trx, event('Q2hhcmdlOmtlcHQ=')));
  // Notifications arrive in commit order: once the commit's is here, a rolled-back one would be too.
  await until(() => announced.length > 0);
  assert.equal(announced, [OUTBOX_CHANGE]);
  await drain(server);
});

test.run();
