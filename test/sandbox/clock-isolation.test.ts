// The sandbox clock is per company: moving it needs the company's own credentials, reading it
// answers the caller's clock (the server's own time without credentials, for operators), and
// what a company's clock decides (charge expiry, by request and by the background job; the
// life of one-time codes) moves for that company only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pino from 'pino';
import { CHARGE_EXPIRY_JOB } from '../../src/charges/expiry.job';
import { jobTable } from '../../src/job-table';
import { RECURRENCES_JOB } from '../../src/recurrences/recurrences.module';
import { SUBSCRIPTION_CHARGES_JOB } from '../../src/subscriptions/subscriptions.service';
import { WEBHOOKS_JOB } from '../../src/webhooks/webhooks.module';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { codes, lastCode, register } from '../kyc/support';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  a = await createCompany(server.client);
  b = await createCompany(server.client);
});
test.after(async () => server.close());

const clockOf = (c?: TestCompany) => server.client.get('/api/v1/sandbox/clock', c ? { auth: c.appID } : {});
const charge = async (c: TestCompany, correlationID: string) => {
  const res = await server.client.post(
    '/api/v1/charge',
    { correlationID, value: 700, expiresIn: 600 },
    { auth: c.appID },
  );
  assert.is(res.status, 200, res.text);
};
const statusOf = async (c: TestCompany, correlationID: string) =>
  (await server.client.get(`/api/v1/charge/${correlationID}`, { auth: c.appID })).body.charge.status as string;

test('only the company credentials move its clock; each company reads its own', async () => {
  const anonymous = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 60 });
  assert.equal([anonymous.status, anonymous.body.error], [401, 'Invalid Authorization header']);
  const forged = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 60 }, { auth: 'nope' });
  assert.is(forged.status, 401);
  const moved = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 7200 }, { auth: a.appID });
  assert.is(moved.status, 200, moved.text);
  assert.is(moved.body.offsetSeconds, 7200);
  assert.is((await clockOf(a)).body.offsetSeconds, 7200);
  assert.is((await clockOf(b)).body.offsetSeconds, 0, "another company's clock did not move");
  // Without credentials: the server's own time (operators), which no company's clock is behind.
  const server_ = await clockOf();
  assert.is(server_.body.offsetSeconds, 0);
  assert.ok(Math.abs(Date.parse(server_.body.now) - Date.now()) < 5000);
  assert.is((await server.client.get('/api/v1/sandbox/clock', { auth: 'nope' })).status, 401);
});

test("a company's clock expires its own charges only, by request and by the background job", async () => {
  await charge(a, 'iso-a');
  await charge(b, 'iso-b');
  const advanced = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 601 }, { auth: a.appID });
  assert.is(advanced.status, 200);
  assert.is(await statusOf(a, 'iso-a'), 'EXPIRED');
  assert.is(await statusOf(b, 'iso-b'), 'ACTIVE');
  // The job compares each charge with its own company's clock, not the furthest one.
  await server.services.jobs.runNow(CHARGE_EXPIRY_JOB);
  const expired = await server.database.db
    .selectFrom('charges')
    .select(['correlation_id', 'expired_event_at'])
    .where('correlation_id', 'in', ['iso-a', 'iso-b'])
    .orderBy('correlation_id')
    .execute();
  assert.equal(
    expired.map((r) => [r.correlation_id, r.expired_event_at !== null]),
    [
      ['iso-a', true],
      ['iso-b', false],
    ],
  );
  assert.is(await statusOf(b, 'iso-b'), 'ACTIVE');
});

test("one-time codes live on their company's clock", async () => {
  const ra = await register(server, a, ['ana@iso.com.br']);
  const rb = await register(server, b, ['bia@iso.com.br']);
  const [ca, cb] = [codes(server, a), codes(server, b)];
  assert.is(await ca.sendEmail(ra), 'CODE_SENT');
  assert.is(await cb.sendEmail(rb), 'CODE_SENT');
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 601 }, { auth: a.appID });
  assert.is(await ca.verifyEmail(ra, await lastCode(server, ra.reps[0]!.id, 'EMAIL')), 'CODE_EXPIRED');
  assert.is(await cb.verifyEmail(rb, await lastCode(server, rb.reps[0]!.id, 'EMAIL')), 'VERIFIED');
});

test("moving a company's clock wakes the jobs whose work comes due with it; a refused move does not", async () => {
  const jobs = server.services.jobs;
  const wake = jobs.wakeClockDriven.bind(jobs);
  let woken = 0;
  jobs.wakeClockDriven = () => (woken++, wake());
  try {
    const refused = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 0 }, { auth: a.appID });
    assert.is(refused.status, 400, refused.text);
    assert.is(woken, 0);
    const moved = await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 60 }, { auth: a.appID });
    assert.is(moved.status, 200, moved.text);
    assert.is(woken, 1);
  } finally {
    jobs.wakeClockDriven = wake;
  }
  // Which jobs those are: the ones that read a company's clock to find their work.
  const clockDriven = jobTable(server.services, { embedded: server.database.kind === 'embedded', log: pino() })
    .filter((row) => row.clockDriven)
    .map((row) => row.name);
  for (const name of [CHARGE_EXPIRY_JOB, RECURRENCES_JOB, SUBSCRIPTION_CHARGES_JOB, 'payments.expire', WEBHOOKS_JOB])
    assert.ok(clockDriven.includes(name), `${name} is woken by the clock`);
  assert.not.ok(clockDriven.includes('idempotency.cleanup'), "idempotency records follow the server's own time");
});

test.run();
