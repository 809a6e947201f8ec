// What a client sees when the database fails under a request, on both databases: the failure
// is injected with triggers (a connection error raised with its SQLSTATE, a statement that
// sleeps past the request's deadline), the way a restart or a stalled Postgres would meet a
// request. Connections really lost are test/db/connection-loss.test.ts (Postgres).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { record, startReceiver, type Receiver } from '../webhooks/receiver';

// Short enough that a statement sleeping SLEEP_S outlives it; long enough for a loaded machine.
const REQUEST_TIMEOUT_MS = 4000;
const SLEEP_S = 6;

let server: TestServer;
let company: TestCompany;
let token: string;
let receiver: Receiver;

test.before(async () => {
  server = await startTestServer(
    { PIXGATE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), PIXGATE_WEBHOOK_TIMEOUT_MS: '1000' },
    { backgroundJobs: false },
  );
  company = await createCompany(server.client);
  token = await pixToken(server.client, company, 'cob.read cob.write');
  receiver = await startReceiver(() => 200);
  // Charges whose correlationID (or txid) starts with "down" meet a connection error as
  // Postgres sends it when it shuts down (57P01 admin_shutdown); paying one whose
  // correlationID starts with "slow" meets a statement that takes longer than the request may
  // (within the payment's transaction, before its other statements).
  await sql`
    create function inject_charge_failures() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' and (new.correlation_id like 'down%' or new.txid like 'down%') then
        raise exception 'terminating connection due to administrator command' using errcode = '57P01';
      end if;
      if tg_op = 'UPDATE' and new.correlation_id like 'slow%' and new.status = 'CONCLUIDA' then
        perform pg_sleep(${sql.lit(SLEEP_S)});
      end if;
      return new;
    end $$`.execute(server.database.db);
  await sql`create trigger inject_charge_failures before insert or update on charges
    for each row execute function inject_charge_failures()`.execute(server.database.db);
});

test.after(async () => {
  await receiver?.close();
  await server?.close();
});

const chargeBody = (correlationID: string) => ({ correlationID, value: 1234, comment: 'pedido' });
const alnum = (n: number) => randomBytes(n).toString('hex').slice(0, n);

async function storedCharges(prefix: string): Promise<number> {
  const row = await server.database.db
    .selectFrom('charges')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('correlation_id', 'like', `${prefix}%`), eb('txid', 'like', `${prefix}%`)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

test('a lost database connection answers 503 in the platform format, with Retry-After, and stores nothing', async () => {
  const res = await server.client.post('/api/v1/charge', chargeBody(`down-${alnum(8)}`), { auth: company.appID });
  assert.is(res.status, 503, res.text);
  assert.equal(res.body, { error: 'The service is temporarily unavailable; try again shortly' });
  assert.is(res.headers.get('retry-after'), '5');
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.is(await storedCharges('down'), 0);
  // The same request, once the database answers again, is served.
  const ok = await server.client.post('/api/v1/charge', chargeBody(`up-${alnum(8)}`), { auth: company.appID });
  assert.is(ok.status, 200, ok.text);
});

test('a lost database connection answers 503 problem+json on the Pix API', async () => {
  const txid = `down${alnum(28)}`;
  const res = await server.client.put(
    `/pix/v2/cob/${txid}`,
    { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: company.pixKey },
    { auth: token },
  );
  assert.is(res.status, 503, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.is(res.headers.get('retry-after'), '5');
  assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel');
  assert.is(res.body.status, 503);
  assert.type(res.body.title, 'string');
  assert.is(await storedCharges(txid), 0);
});

test('a request that runs out of time answers 503 and its transaction rolls back', async () => {
  const correlationID = `slow-${alnum(8)}`;
  const created = await server.client.post('/api/v1/charge', chargeBody(correlationID), { auth: company.appID });
  assert.is(created.status, 200, created.text);
  const balance = async () =>
    (await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID })).body.account.balance;
  const before = await balance();
  const payer = { name: 'Joao Souza', taxID: '268.015.731-10' };
  const res = await server.client.post('/api/v1/sandbox/pay', { brCode: created.body.charge.brCode, payer });
  assert.is(res.status, 503, res.text);
  assert.equal(res.body, { error: 'The service is temporarily unavailable; try again shortly' });
  // On Postgres the abandoned statement may still be sleeping there: once it has woken up,
  // its transaction must be gone, not committed late.
  await sleep(SLEEP_S * 1000 - REQUEST_TIMEOUT_MS + 1000);
  const read = await server.client.get(`/api/v1/charge/${correlationID}`, { auth: company.appID });
  assert.is(read.body.charge?.status, 'ACTIVE', read.text);
  assert.equal(await balance(), before);
  const pixIn = await server.database.db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', company.accountId)
    .executeTakeFirstOrThrow();
  assert.is(Number(pixIn.n), 0, 'no ledger entry of the payment');
  // The server goes on serving (on Postgres, on a new connection).
  const ok = await server.client.post('/api/v1/charge', chargeBody(`after-${alnum(8)}`), { auth: company.appID });
  assert.is(ok.status, 200, ok.text);
});

test('a request with an Idempotency-Key that ran out of time frees its key: the retry runs', async () => {
  // The first customer named "Lenta" to be stored takes longer than the request may.
  await sql`create sequence slow_customers`.execute(server.database.db);
  await sql`
    create function slow_first_customer() returns trigger language plpgsql as $$
    begin
      if new.name = 'Lenta' and nextval('slow_customers') = 1 then perform pg_sleep(${sql.lit(SLEEP_S)}); end if;
      return new;
    end $$`.execute(server.database.db);
  await sql`create trigger slow_first_customer before insert on customers
    for each row execute function slow_first_customer()`.execute(server.database.db);
  const correlationID = `key-${alnum(8)}`;
  const body = { ...chargeBody(correlationID), customer: { name: 'Lenta', taxID: '529.982.247-25' } };
  const headers = { 'Idempotency-Key': `retry-${alnum(8)}` };
  const first = await server.client.post('/api/v1/charge', body, { auth: company.appID, headers });
  assert.is(first.status, 503, first.text);
  await sleep(SLEEP_S * 1000 - REQUEST_TIMEOUT_MS + 1000);
  assert.is(await storedCharges(correlationID), 0);
  const retry = await server.client.post('/api/v1/charge', body, { auth: company.appID, headers });
  assert.is(retry.status, 200, `the key was left running: ${retry.text}`);
  assert.is(await storedCharges(correlationID), 1);
});

test("a webhook's success is recorded through a database failure right after the answer: sent once", async () => {
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'once', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/once` } },
    { auth: company.appID },
  );
  assert.is(hook.status, 200, hook.text);
  // The first time a delivery is marked SUCCEEDED, the statement meets a connection error
  // (08006): the receiver has the event, the database has not heard yet. A sequence, because
  // it is not rolled back with the statement that failed.
  await sql`create sequence webhook_success_failures`.execute(server.database.db);
  await sql`
    create function fail_first_webhook_success() returns trigger language plpgsql as $$
    begin
      if new.status = 'SUCCEEDED' and nextval('webhook_success_failures') = 1 then
        raise exception 'connection failure' using errcode = '08006';
      end if;
      return new;
    end $$`.execute(server.database.db);
  await sql`create trigger fail_first_webhook_success before update on webhook_deliveries
    for each row execute function fail_first_webhook_success()`.execute(server.database.db);
  const eventId = await record(server, company.companyId, 'OPENPIX:CHARGE_COMPLETED', { charge: { n: 1 } });
  const stats = await server.services.webhookDelivery.runOnce();
  assert.ok(stats.attempted >= 1 && stats.succeeded === stats.attempted, JSON.stringify(stats));
  const failures = await sql<{ n: number }>`select last_value as n from webhook_success_failures`.execute(
    server.database.db,
  );
  assert.ok(Number(failures.rows[0]!.n) >= 2, 'the first recording failed and was tried again');
  const delivery = await server.database.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'status', 'attempt_count', 'lease_token'])
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  assert.equal(
    { status: delivery.status, attempts: delivery.attempt_count, leased: delivery.lease_token !== null },
    { status: 'SUCCEEDED', attempts: 1, leased: false },
  );
  const logged = await server.database.db
    .selectFrom('webhook_attempts')
    .select(['status_code'])
    .where('delivery_id', '=', delivery.id)
    .execute();
  assert.equal(logged, [{ status_code: 200 }]);
  // Whatever lease there was has long run out: a later run sends nothing again.
  await server.database.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: new Date(0) })
    .execute();
  await server.services.webhookDelivery.runOnce();
  const sent = receiver.requests.filter((r) => r.headers['x-pixgate-event-id'] === eventId);
  assert.is(sent.length, 1, 'the receiver got the event once');
});

test.run();
