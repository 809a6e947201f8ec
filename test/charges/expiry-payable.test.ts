// Expiry by the server clock: OPENPIX:CHARGE_EXPIRED recorded once per expired charge (by the
// job, also right after a sandbox clock advance); and the payable interface money in uses:
// lock a charge by location or txid, the amount due, the refusals, completion.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { completeCharge, findCompanyCharge, lockChargeForPayment } from '../../src/charges/payable';
import { platformChargeView } from '../../src/charges/platform/platform.view';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../support/server';
import { postgresOnly } from '../support/skip';
import { advanceClock, chargesCompany, decodeBrCode, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
});
test.after(async () => server.close());

const create = (body: Record<string, unknown>) => server.client.post('/api/v1/charge', body, { auth: acme.appID });
const expiredEvents = async () =>
  (await listEventsOfCompany(server.database.db, acme.companyId, 'OPENPIX:CHARGE_EXPIRED')).map(
    (e) => e.payload as any,
  );
const lock = (target: Parameters<typeof lockChargeForPayment>[1], at: Date) =>
  server.database.db.transaction().execute((trx) => lockChargeForPayment(trx, target, at));

test('payable: lock by location URL (with or without scheme) or txid, with the amount due', async () => {
  const made = await create({ correlationID: 'pay-1', value: 2590, expiresIn: 600 });
  const { locationUrl } = decodeBrCode(made.body.brCode);
  const now = new Date();
  for (const target of [
    { locationUrl: locationUrl! },
    { locationUrl: `https://${locationUrl}` },
    { companyId: acme.companyId, txid: made.body.charge.identifier },
  ]) {
    const res = await lock(target, now);
    assert.ok(res.ok, JSON.stringify(res));
    if (res.ok) {
      assert.is(res.value.amountDue, 2590);
      assert.is(res.value.charge.correlation_id, 'pay-1');
    }
  }
  const late = await lock({ locationUrl: locationUrl! }, new Date(now.getTime() + 3600_000));
  assert.equal(late, { ok: false, code: 'EXPIRED', message: 'The charge has expired' });
  const none = await lock({ locationUrl: 'localhost:1/qr/v2/00000000-0000-4000-8000-000000000000' }, now);
  assert.is(none.ok ? 'ok' : none.code, 'NOT_FOUND');
  const otherCompany = await lock({ companyId: 'nope', txid: made.body.charge.identifier }, now);
  assert.is(otherCompany.ok ? 'ok' : otherCompany.code, 'NOT_FOUND');

  // OVERDUE: final for the day; past validity refused
  const due = await create({
    type: 'OVERDUE',
    correlationID: 'pay-2',
    value: 10000,
    dueDate: '2027-03-10T12:00:00Z',
    daysAfterDueDate: 2,
    fines: { value: 1000 },
    customer: { name: 'Ana Souza', taxID: '12345678909' },
  });
  const dueUrl = decodeBrCode(due.body.brCode).locationUrl!;
  const onTime = await lock({ locationUrl: dueUrl }, new Date('2027-03-10T20:00:00Z'));
  assert.is(onTime.ok && onTime.value.amountDue, 10000);
  const fined = await lock({ locationUrl: dueUrl }, new Date('2027-03-12T20:00:00Z'));
  assert.is(fined.ok && fined.value.amountDue, 11000);
  // The last day (03-12) ends at midnight in Brasília, 03:00 UTC.
  const lastMinute = await lock({ locationUrl: dueUrl }, new Date('2027-03-13T02:59:59Z'));
  assert.is(lastMinute.ok && lastMinute.value.amountDue, 11000);
  const past = await lock({ locationUrl: dueUrl }, new Date('2027-03-13T03:00:00Z'));
  assert.is(past.ok ? 'ok' : past.code, 'PAST_VALIDITY');

  // completion: CONCLUIDA without a new revision, then NOT_PAYABLE
  const charge = (await findCompanyCharge(server.database.db, acme.companyId, 'pay-1'))!;
  await server.database.db.transaction().execute(async (trx) => {
    const locked = await lockChargeForPayment(trx, { locationUrl: locationUrl! }, now);
    assert.ok(locked.ok);
    await completeCharge(trx, locked.value.found, now);
  });
  const paid = await lock({ locationUrl: locationUrl! }, now);
  assert.equal(paid, { ok: false, code: 'NOT_PAYABLE', message: 'The charge is already paid' });
  const view = await platformChargeView(
    server.database.db,
    (await findCompanyCharge(server.database.db, acme.companyId, 'pay-1'))!,
    server.services.config.publicUrl,
    now,
  );
  assert.is(view.status, 'COMPLETED');
  assert.is(view.paidAt, now.toISOString());
  const cob = await server.client.get(`/pix/v2/cob/${charge.txid}`, { auth: acme.bearer });
  assert.is(cob.body.status, 'CONCLUIDA');
  assert.is(cob.body.revisao, 0);
  const byGlobal = await findCompanyCharge(server.database.db, acme.companyId, made.body.charge.globalID);
  assert.is(byGlobal?.id, charge.id);

  await server.client.delete('/api/v1/charge/pay-2', { auth: acme.appID });
  const removed = await lock({ companyId: acme.companyId, txid: due.body.charge.identifier }, new Date());
  assert.equal(removed, { ok: false, code: 'NOT_PAYABLE', message: 'The charge was removed' });
});

test('CHARGE_EXPIRED: once per charge past its expiry, after a clock advance or by the job', async () => {
  await create({ correlationID: 'exp-300', value: 100, expiresIn: 300 });
  await create({ correlationID: 'exp-900', value: 100, expiresIn: 900 });
  const cob = await server.client.post(
    '/pix/v2/cob',
    { calendario: { expiracao: 400 }, valor: { original: '1.00' }, chave: acme.key },
    { auth: acme.bearer },
  );
  await create({ correlationID: 'exp-deleted', value: 100, expiresIn: 300 });
  await server.client.delete('/api/v1/charge/exp-deleted', { auth: acme.appID });
  await server.services.jobs.runNow('charges.expiry');
  assert.equal(await expiredEvents(), []);

  await advanceClock(server, acme, 301);
  let events = await expiredEvents();
  assert.equal(
    events.map((e) => e.charge.correlationID),
    ['exp-300'],
  );
  assert.is(events[0].charge.status, 'EXPIRED');
  assert.is(events[0].company.id, acme.companyId);
  assert.is(events[0].account.accountId, acme.accountId);

  await advanceClock(server, acme, 100);
  await server.services.jobs.runNow('charges.expiry');
  events = await expiredEvents();
  assert.equal(
    events.map((e) => e.charge.correlationID),
    ['exp-300', cob.body.txid],
  );

  await advanceClock(server, acme, 3600);
  events = await expiredEvents();
  // pay-1 (paid) and exp-deleted (removed) never expire; pay-1's sibling charges do
  assert.equal(events.map((e) => e.charge.correlationID).sort(), ['exp-300', 'exp-900', cob.body.txid].sort());
  const row = await server.database.db
    .selectFrom('charges')
    .select(['expired_event_at'])
    .where('correlation_id', '=', 'exp-300')
    .executeTakeFirstOrThrow();
  assert.ok(row.expired_event_at instanceof Date);
});

test('concurrent runs record each expiry once', async () => {
  for (let i = 0; i < 5; i++) await create({ correlationID: `race-${i}`, value: 100, expiresIn: 300 });
  await server.services.clock.advance(acme.companyId, 301);
  await Promise.all([
    server.services.chargeExpiry.run(),
    server.services.chargeExpiry.run(),
    server.services.chargeExpiry.run(),
  ]);
  const events = (await expiredEvents()).filter((e) => String(e.charge.correlationID).startsWith('race-'));
  assert.is(events.length, 5);
  assert.is(new Set(events.map((e) => e.charge.correlationID)).size, 5);
});

// The clock's advance wakes the job, which may hold some of the company's due charges while the
// advance's own run of the company looks for them: that run must wait for them, not skip them,
// or the advance answers before every due charge is announced.
postgresOnly("a company's run waits for the due charges another run holds, then announces them", async () => {
  const other = await chargesCompany(server);
  await server.client.post(
    '/api/v1/charge',
    { correlationID: 'held-1', value: 100, expiresIn: 300 },
    { auth: other.appID },
  );
  await server.services.clock.advance(other.companyId, 301);
  let finished = false;
  let finishedWhileHeld = false;
  let run: Promise<number> | undefined;
  await server.database.db.transaction().execute(async (holder) => {
    await sql`select id from charges where company_id = ${other.companyId} for update`.execute(holder);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(holder);
    run = server.services.chargeExpiry.run({ companyId: other.companyId }).finally(() => (finished = true));
    // until the run either waits on the held row (Postgres names the holder as its blocker) or ends
    for (;;) {
      const waiting = await sql<{ pid: number }>`select pid from pg_stat_activity
        where ${rows[0]!.pid}::int = any(pg_blocking_pids(pid))`.execute(server.database.db);
      if (waiting.rows.length > 0 || finished) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    finishedWhileHeld = finished;
  });
  await run;
  assert.is(finishedWhileHeld, false, 'the run ended while a due charge was held elsewhere');
  const events = await listEventsOfCompany(server.database.db, other.companyId, 'OPENPIX:CHARGE_EXPIRED');
  assert.equal(
    events.map((e) => (e.payload as any).charge.correlationID),
    ['held-1'],
  );
});

test.run();
