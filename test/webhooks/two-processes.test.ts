// Two server processes on one real Postgres share the outbox and the deliveries: every event
// is fanned out once and delivered once, by one of them (FOR UPDATE SKIP LOCKED and leases).
// Runs only on Postgres (DATABASE_URL); the embedded database has one process by design.
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import type { RunStats } from '../../src/webhooks/delivery.service';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { record, startReceiver, type Receiver } from './receiver';

const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let receiver: Receiver;
let company: TestCompany;
let secret: string;

test.before(async () => {
  if (!onPostgres) return;
  a = await startTestServer({}, { backgroundJobs: false });
  b = await startTestServer({}, { schema: a.database.schema!, backgroundJobs: false });
  // A receiver slow enough that both processes are sending at the same time: at 8 deliveries
  // in flight per receiver, one process needs 2.5 s for the 200 events below, time enough for
  // the other to claim its share even on a loaded machine.
  receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
  company = await createCompany(a.client);
  const res = await b.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'shared', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/shared` } },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  secret = res.body.webhook.secret;
  // The test event the new webhook gets goes first, out of the counts below.
  assert.is((await a.services.webhookDelivery.runOnce()).attempted, 1);
});
test.after(async () => {
  if (!onPostgres) return;
  await receiver.close();
  await b.close();
  await a.close();
});
test.before.each(() => {
  if (onPostgres) receiver.requests.length = 0;
});

function assertEachOnce(ids: string[]): void {
  const seen = receiver.requests.map((r) => r.headers['x-pixgate-event-id'] as string);
  assert.is(seen.length, ids.length, `received ${seen.length} requests for ${ids.length} events`);
  assert.equal([...seen].sort(), [...ids].sort());
}

postgresOnly('both processes drain the same outbox concurrently: each event delivered exactly once', async () => {
  const ids: string[] = [];
  // More than one process keeps in flight (MAX_IN_FLIGHT, 64), so that both have work to take.
  for (let i = 0; i < 200; i++)
    ids.push(await record(i % 2 ? a : b, company.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { n: i } }));
  const totals = { a: { fannedOut: 0, attempted: 0, succeeded: 0 }, b: { fannedOut: 0, attempted: 0, succeeded: 0 } };
  const add = (t: RunStats, s: RunStats) => (
    (t.fannedOut += s.fannedOut),
    (t.attempted += s.attempted),
    (t.succeeded += s.succeeded)
  );
  // Each process runs its job in its own loop, as its timer would, until everything arrived.
  const deadline = Date.now() + 20_000;
  const loop = async (server: TestServer, total: RunStats) => {
    while (receiver.requests.length < ids.length && Date.now() < deadline) {
      add(total, await server.services.webhookDelivery.runOnce());
      await sleep(5);
    }
  };
  await Promise.all([loop(a, totals.a), loop(b, totals.b)]);
  assertEachOnce(ids);
  assert.is(totals.a.fannedOut + totals.b.fannedOut, 200);
  assert.is(totals.a.attempted + totals.b.attempted, 200);
  assert.is(totals.a.succeeded + totals.b.succeeded, 200);
  assert.ok(totals.a.attempted > 0 && totals.b.attempted > 0, `work was shared: ${JSON.stringify(totals)}`);
  const rows = await a.database.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempt_count'])
    .where('company_id', '=', company.companyId)
    .where('is_test', '=', false)
    .execute();
  assert.is(rows.length, 200);
  assert.ok(rows.every((r) => r.status === 'SUCCEEDED' && r.attempt_count === 1));
  const attempts = await a.database.db
    .selectFrom('webhook_attempts')
    .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .where('webhook_deliveries.is_test', '=', false)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.is(Number(attempts.n), 200);
  for (const r of receiver.requests)
    assert.ok(
      (await import('../../src/webhooks/signature')).verifyHmacSignature(
        secret,
        r.body,
        r.headers['x-pixgate-signature'] as string,
      ).ok,
    );
});

postgresOnly('with their timers running, the two processes still deliver each event once', async () => {
  const ids: string[] = [];
  a.services.jobs.start();
  b.services.jobs.start();
  for (let i = 0; i < 30; i++)
    ids.push(await record(i % 2 ? a : b, company.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { timer: i } }));
  await receiver.waitFor(ids.length, 20_000);
  await sleep(1500); // a duplicate would arrive now
  assertEachOnce(ids);
});

test.run();
