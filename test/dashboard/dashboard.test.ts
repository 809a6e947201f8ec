// The dashboard over HTTP: sign-in and its cookies (only a hash of the session id stored),
// CSRF refusals (sign-in form included), sign-out, another company's objects answering the
// dashboard's own 404 on every route (GET and POST, nothing changed), and each page's first
// screen in at most 3 statements with 10,000 charges in the company.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { recBody, today } from '../recurrences/support';
import { OUTSIDE_KEY } from '../payments/helpers';
import { startTestServer, type TestServer } from '../support/server';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { DashboardSession, loadCharges } from './support';
import { sandboxFailureTable } from '../../src/rail/failure-table.service';
import { TEXTS } from '../../src/dashboard/view/i18n';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let receiver: Receiver;
const ids = {
  charge: '',
  txid: '',
  webhook: '',
  delivery: '',
  event: '',
  request: '',
  endToEndId: '',
  testEvent: '',
  subscription: '',
  rec: '',
};

test.before(async () => {
  server = await startTestServer({ PIXGATE_WEBHOOK_RETRY_SCHEDULE: 'none' });
  a = await createCompany(server.client, { name: 'Empresa A' });
  b = await createCompany(server.client, { name: 'Empresa B' });
  receiver = await startReceiver(() => 500);
  const hook = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'a', event: 'OPENPIX:CHARGE_COMPLETED', url: `${receiver.url}/a`, isActive: true } },
    { auth: a.appID },
  );
  ids.webhook = hook.body.webhook.id;
  const paid = await server.client.post('/api/v1/charge', { correlationID: 'a-paga', value: 500 }, { auth: a.appID });
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: paid.body.charge.brCode,
    payer: { name: 'Joao', taxID: '268.015.731-10' },
  });
  assert.is(pay.status, 200, pay.text);
  ids.endToEndId = pay.body.endToEndId;
  await receiver.waitFor(1);
  const open = await server.client.post('/api/v1/charge', { correlationID: 'a-aberta', value: 700 }, { auth: a.appID });
  ids.charge = open.body.charge.correlationID;
  ids.txid = open.body.charge.transactionID;
  const deliveries = await waitForDelivery();
  ids.delivery = deliveries[0].id;
  ids.event = deliveries[0].eventId;
  const created = await server.client.get('/api/v1/events?type=OPENPIX:CHARGE_CREATED', { auth: a.appID });
  assert.is(created.status, 200, created.text);
  ids.testEvent = created.body.events[0].id;
  const refused = await server.client.get('/api/v1/charge/nada-disso', { auth: a.appID });
  assert.is(refused.status, 404);
  const sub = await server.client.post(
    '/api/v1/subscriptions',
    {
      value: 5_000,
      correlationID: 'plano-a',
      customer: { name: 'Mariana Alves Costa', taxID: '52998224725', email: 'mariana.costa@email.com.br' },
      frequency: 'MONTHLY',
      dayGenerateCharge: 1,
    },
    { auth: a.appID },
  );
  assert.is(sub.status, 200, sub.text);
  ids.subscription = sub.body.subscription.globalID;
  const rec = await server.client.post('/pix/v2/rec', recBody(await today(server, a)), {
    auth: await pixToken(server.client, a),
  });
  assert.is(rec.status, 201, rec.text);
  ids.rec = rec.body.idRec;
  const payment = await server.client.post(
    '/api/v1/payment',
    {
      correlationID: 'a-pagamento',
      destinationAliasType: 'EMAIL',
      destinationAlias: OUTSIDE_KEY,
      value: 100,
      type: 'PIX_KEY',
    },
    { auth: a.appID },
  );
  assert.is(payment.status, 200, payment.text);
  await server.services.requestLogs.flush();
  const logs = await server.client.get('/api/v1/request-logs?status=4xx', { auth: a.appID });
  assert.is(logs.status, 200, logs.text);
  ids.request = logs.body.requestLogs[0].requestId;
});

test.after(async () => {
  await receiver.close();
  await server.close();
});

async function waitForDelivery(): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const res = await server.client.get(`/api/v1/webhook/${ids.webhook}/deliveries`, { auth: a.appID });
    if (res.body.deliveries?.[0]?.status === 'FAILED') return res.body.deliveries;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error('no failed delivery');
}

test('sign-in sets an HttpOnly, SameSite=Strict cookie whose id is stored only as a hash', async () => {
  const s = new DashboardSession(server);
  await s.get('/dashboard/login');
  const res = await s.post('/dashboard/login', { appId: a.appID });
  assert.is(res.status, 303);
  const line = res.headers.getSetCookie().find((c) => c.startsWith('pixgate_dash='))!;
  assert.match(line, /HttpOnly/);
  assert.match(line, /SameSite=Strict/);
  assert.match(line, /Path=\/dashboard/);
  const id = s.cookie('pixgate_dash')!;
  const rows = await server.database.db.selectFrom('dashboard_sessions').selectAll().execute();
  const hash = createHash('sha256').update(id).digest('hex');
  assert.ok(rows.some((r) => r.id_hash === hash && r.company_id === a.companyId));
  assert.not.ok(JSON.stringify(rows).includes(id), 'the session id is stored in clear');
  assert.not.ok(JSON.stringify(rows).includes(a.clientSecret), 'the secret is stored');
});

test('the sign-in form is refused without its token, or with bad credentials', async () => {
  const s = new DashboardSession(server);
  await s.get('/dashboard/login');
  const bare = await s.post('/dashboard/login', { appId: a.appID }, { withToken: false });
  assert.is(bare.status, 403);
  assert.is(s.cookie('pixgate_dash'), undefined);
  const wrong = await s.post('/dashboard/login', { appId: b.appID.slice(0, -4) + 'AAA=' });
  assert.is(wrong.status, 401);
  const other = new DashboardSession(server);
  await other.signIn({ clientId: b.clientId, clientSecret: b.clientSecret });
});

test("a form without the token, or with another session's, is refused and changes nothing", async () => {
  const s = new DashboardSession(server);
  await s.signIn({ appId: a.appID });
  const before = await server.client.get('/api/v1/sandbox/clock', { auth: a.appID });
  const bare = await s.post('/dashboard/sandbox/clock', { seconds: '86400' }, { withToken: false });
  assert.is(bare.status, 403);
  const other = new DashboardSession(server);
  await other.signIn({ appId: a.appID });
  const foreign = await s.post('/dashboard/sandbox/clock', { seconds: '86400', _csrf: other.csrf });
  assert.is(foreign.status, 403);
  const after = await server.client.get('/api/v1/sandbox/clock', { auth: a.appID });
  assert.is(after.body.offsetSeconds, before.body.offsetSeconds);
});

test('sign-out ends the session on the server', async () => {
  const s = new DashboardSession(server);
  await s.signIn({ appId: a.appID });
  const id = s.cookie('pixgate_dash')!;
  const out = await s.post('/dashboard/logout');
  assert.is(out.status, 303);
  const again = await fetch(`${server.url}/dashboard`, {
    headers: { cookie: `pixgate_dash=${id}` },
    redirect: 'manual',
  });
  assert.is(again.status, 302);
  assert.match(again.headers.get('location') ?? '', '/dashboard/login');
});

test("B tries A's ids on every dashboard route: the dashboard's 404, nothing changed", async () => {
  const s = new DashboardSession(server);
  await s.signIn({ appId: b.appID });
  const gets = [
    `/dashboard/charges/${ids.charge}`,
    `/dashboard/charges/${ids.txid}`,
    `/dashboard/charges/a-paga`,
    `/dashboard/charges/${ids.charge}/live`,
    `/dashboard/webhooks/${ids.webhook}`,
    `/dashboard/webhooks/${ids.webhook}/deliveries/${ids.delivery}`,
    `/dashboard/subscriptions/${encodeURIComponent(ids.subscription)}`,
    `/dashboard/recurrences/${ids.rec}`,
    `/dashboard/events/${ids.event}`,
    `/dashboard/events/${ids.testEvent}`,
    `/dashboard/requests/${ids.request}`,
    `/dashboard/receipts/pix-in/${ids.endToEndId}`,
  ];
  // (each of them is A's: A sees it)
  const owner = new DashboardSession(server);
  await owner.signIn({ appId: a.appID });
  for (const path of gets) assert.is((await owner.get(path)).status, 200, `A: ${path}`);
  for (const path of gets) {
    const res = await s.get(path);
    assert.is(res.status, 404, path);
    assert.match(res.text, 'Não encontrado', path);
  }
  const posts = [
    `/dashboard/charges/${ids.charge}/simulate`,
    `/dashboard/charges/a-paga/refund`,
    `/dashboard/payments/a-pagamento/approve`,
    `/dashboard/webhooks/${ids.webhook}/test`,
    `/dashboard/webhooks/${ids.webhook}/deliveries/${ids.delivery}/resend`,
  ];
  for (const path of posts) {
    const res = await s.post(path, { value: '1,00' });
    assert.is(res.status, 404, path);
  }
  const charge = await server.client.get(`/api/v1/charge/${ids.charge}`, { auth: a.appID });
  assert.is(charge.body.charge.status, 'ACTIVE');
  const payment = await server.client.get('/api/v1/payment/a-pagamento', { auth: a.appID });
  assert.is(payment.body.payment.status, 'CREATED', payment.text);
  const refunds = await server.client.get('/api/v1/charge/a-paga/refund', { auth: a.appID });
  assert.is(refunds.body.refunds.length, 0);
  assert.is(receiver.requests.length, 1);
  // and B's lists show none of A's charges, events or calls
  const list = await s.get('/dashboard/charges?q=a-aberta');
  assert.not.match(list.text, 'a-aberta</a>');
  const events = await s.get(`/dashboard/events?correlationID=a-paga`);
  assert.not.match(events.text, ids.event);
  await server.services.requestLogs.flush();
  const calls = await s.get('/dashboard/requests?status=4xx');
  assert.not.match(calls.text, ids.request);
  assert.not.match(calls.text, /(GET|POST) \/dashboard/, "the dashboard's own pages are no API calls");
});

test('events, request log, deliveries and receipts: each list opens its detail', async () => {
  const s = new DashboardSession(server);
  await s.signIn({ appId: a.appID });
  const events = await s.get('/dashboard/events?correlationID=a-paga&type=OPENPIX:CHARGE_COMPLETED');
  assert.match(events.text, `href="/dashboard/events/${ids.event}"`);
  assert.not.match(events.text, 'OPENPIX:CHARGE_CREATED</a>');
  const event = await s.get(`/dashboard/events/${ids.event}`);
  assert.match(event.text, 'a-paga');
  assert.match(event.text, `/deliveries/${ids.delivery}"`);
  const calls = await s.get('/dashboard/requests?status=4xx');
  assert.match(calls.text, `href="/dashboard/requests/${ids.request}"`);
  assert.not.match(calls.text, 'POST /api/v1/charge<');
  const call = await s.get(`/dashboard/requests/${ids.request}`);
  assert.match(call.text, '/api/v1/charge/nada-disso');
  assert.match(call.text, 'not found', 'the answer body of a 4xx is shown');
  const delivery = await s.get(`/dashboard/webhooks/${ids.webhook}/deliveries/${ids.delivery}`);
  assert.match(delivery.text, 'HTTP 500');
  assert.match(delivery.text, 'X-Pixgate-Signature: ', 'the headers sent are shown');
  assert.match(delivery.text, '&quot;event&quot;:&quot;OPENPIX:CHARGE_COMPLETED&quot;', 'the body sent');
  const charge = await s.get('/dashboard/charges/a-paga');
  assert.match(charge.text, `href="/dashboard/events/${ids.event}"`, 'the timeline opens the event');
  assert.match(charge.text, `href="/dashboard/receipts/pix-in/${ids.endToEndId}"`);
  const pix = await s.get('/dashboard/pix');
  assert.match(pix.text, `href="/dashboard/receipts/pix-in/${ids.endToEndId}"`);
  const receipt = await fetch(`${server.url}/dashboard/receipts/pix-in/${ids.endToEndId}`, {
    headers: { cookie: `pixgate_dash=${s.cookie('pixgate_dash')}` },
  });
  assert.is(receipt.status, 200);
  assert.is(receipt.headers.get('content-type'), 'application/pdf');
  assert.is(
    Buffer.from(await receipt.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  const before = receiver.requests.length;
  await s.get(`/dashboard/webhooks/${ids.webhook}`);
  const sent = await s.post(`/dashboard/webhooks/${ids.webhook}/test`);
  assert.is(sent.status, 303, sent.text);
  const to = sent.headers.get('location')!;
  assert.ok(to.startsWith(`/dashboard/webhooks/${encodeURIComponent(ids.webhook)}/deliveries/`), to);
  const test = await s.get(to);
  assert.match(test.text, 'teste');
  assert.match(test.text, 'X-Pixgate-Test: 1', 'the test header is shown');
  assert.is(receiver.requests.length, before, 'the receiver keeps no test event (it answered it)');
});

const PAGES = [
  '/dashboard',
  '/dashboard/charges',
  '/dashboard/charges?status=ACTIVE',
  '/dashboard/charges?q=load-5000',
  '/dashboard/charges/load-5000',
  '/dashboard/charges/load-5000/live',
  '/dashboard/pix',
  '/dashboard/refunds',
  '/dashboard/payments',
  '/dashboard/subscriptions',
  '/dashboard/recurrences',
  '/dashboard/keys',
  '/dashboard/subaccounts',
  '/dashboard/webhooks',
  '/dashboard/events',
  '/dashboard/events?type=OPENPIX:CHARGE_COMPLETED&from=2020-01-01&to=2099-12-31',
  '/dashboard/requests',
  '/dashboard/requests?status=4xx&operationId=getCharge',
  '/dashboard/sandbox',
];

test("the sandbox's failure table speaks the page's language", async () => {
  const s = new DashboardSession(server);
  await s.signIn({ appId: a.appID });
  const pt = (await s.get('/dashboard/sandbox')).text;
  const en = (await s.get('/dashboard/sandbox?lang=en')).text;
  for (const { failure, description } of sandboxFailureTable()) {
    assert.ok(en.includes(description), `${failure} in English`);
    assert.not.ok(pt.includes(description), `${failure}: English on the Portuguese page`);
    assert.ok(pt.includes(TEXTS['pt-BR'].failureDescriptions[failure]!), `${failure} in Portuguese`);
  }
});

test('each page in at most 3 statements with 10,000 charges in the company', async () => {
  await loadCharges(server, a, 10_000);
  const s = new DashboardSession(server);
  await s.signIn({ appId: a.appID });
  const pages = [
    ...PAGES,
    `/dashboard/charges/a-paga`,
    `/dashboard/webhooks/${ids.webhook}`,
    `/dashboard/webhooks/${ids.webhook}/deliveries/${ids.delivery}`,
    `/dashboard/events/${ids.event}`,
    `/dashboard/requests/${ids.request}`,
  ];
  for (const path of pages) {
    const res = await s.get(path);
    assert.is(res.status, 200, `${path}: ${res.text.slice(0, 200)}`);
    assert.ok(res.statements <= 3, `${path}: ${res.statements} statements`);
  }
  const first = await s.get('/dashboard/charges');
  assert.is((first.text.match(/href="\/dashboard\/charges\/[^"]+"/g) ?? []).length, 25);
  const next = /href="(\/dashboard\/charges\?before=[^"]+)"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
  const second = await s.get(next);
  assert.ok(second.statements <= 3);
  const links = (text: string): string[] => text.match(/href="\/dashboard\/charges\/[^"]+"/g) ?? [];
  assert.is(links(second.text).length, 25);
  assert.not.ok(
    links(second.text).some((l) => links(first.text).includes(l)),
    'the second page repeats the first',
  );
});

test.run();
