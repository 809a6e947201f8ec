// Boletos: a BOLETO charge carries a boleto (barcode and digitable line) that the sandbox
// payer pays by either; the payment is a BOLETO_IN with its fine and interest when late; a
// BOLETO payment of the company is a BOLETO_OUT; the list filters and pages as the public
// reference's, and another company's transaction is answered like a missing one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceCompanyClock, advanceToLocalHour, balanceOf, fund } from '../payments/helpers';

let server: TestServer;
let school: TestCompany;
let other: TestCompany;

test.before(async () => {
  server = await startTestServer();
  school = await createCompany(server.client, { name: 'Escola Pequeno Príncipe' });
  other = await createCompany(server.client);
  await advanceToLocalHour(server, 10, school, other);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

async function boletoCharge(correlationID: string, extra: Record<string, unknown> = {}) {
  const res = await server.client.post(
    '/api/v1/charge',
    {
      type: 'BOLETO',
      correlationID,
      value: 242898,
      daysForDueDate: 5,
      daysAfterDueDate: 30,
      customer: { name: 'Rafael Souza Lima', taxID: '39053344705' },
      ...extra,
    },
    { auth: school.appID },
  );
  assert.is(res.status, 200, res.text);
  return res.body.charge;
}

const payBoleto = (barcode: string) =>
  server.client.post('/api/v1/sandbox/boleto/pay', {
    barcode,
    payer: { name: 'Rafael Souza Lima', taxID: '39053344705' },
  });

// The digitable line as it is printed: five groups with dots and spaces.
function printed(line: string): string {
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
}

test('a BOLETO charge carries its boleto, which the boleto decoder reads back', async () => {
  const charge = await boletoCharge('mensalidade-1');
  const boleto = charge.paymentMethods.boleto;
  assert.is(boleto.method, 'BOLETO');
  assert.is(boleto.status, 'CREATED');
  assert.is(boleto.value, 242898);
  assert.match(boleto.boletoBarcode, /^341[0-9]{41}$/);
  const decoded = await server.client.post(
    '/api/v1/boleto/validate',
    { barcode: boleto.boletoDigitable },
    { auth: other.appID },
  );
  assert.is(decoded.status, 200, decoded.text);
  assert.is(decoded.body.boleto.barcode, boleto.boletoBarcode);
  assert.is(decoded.body.boleto.amount, 242898);
  assert.is(decoded.body.boleto.dueDate, charge.dueDate.slice(0, 10));
  // Only BOLETO charges have one.
  const overdue = await server.client.post(
    '/api/v1/charge',
    {
      type: 'OVERDUE',
      correlationID: 'sem-boleto',
      value: 1000,
      daysForDueDate: 3,
      customer: { name: 'Ana', taxID: '39053344705' },
    },
    { auth: school.appID },
  );
  assert.is(overdue.status, 200, overdue.text);
  assert.is(overdue.body.charge.paymentMethods.boleto, undefined);
});

test('paid on time by its printed digitable line: BOLETO_IN, the charge completed, the money in', async () => {
  const charge = await boletoCharge('mensalidade-2');
  const before = await balanceOf(server, school);
  const res = await payBoleto(printed(charge.paymentMethods.boleto.boletoDigitable));
  assert.is(res.status, 200, res.text);
  const tx = res.body.boletoTransaction;
  assert.is(tx.type, 'BOLETO_IN');
  assert.is(tx.status, 'CONFIRMED');
  assert.is(tx.value, 242898);
  assert.is(tx.fee, 0);
  assert.is(tx.settledAt, tx.createdAt);
  assert.is(tx.finesValue, undefined);
  assert.is(tx.interestsValue, undefined);
  assert.equal(tx.charge, {
    correlationID: 'mensalidade-2',
    value: 242898,
    status: 'COMPLETED',
    boletoBarcode: charge.paymentMethods.boleto.boletoBarcode,
    boletoDigitable: charge.paymentMethods.boleto.boletoDigitable,
  });
  assert.is((await balanceOf(server, school)).total, before.total + 242898);
  const read = await server.client.get('/api/v1/charge/mensalidade-2', { auth: school.appID });
  assert.is(read.body.charge.status, 'COMPLETED');
  assert.is(read.body.charge.paymentMethods.boleto.status, 'COMPLETED');
  const events = await listEventsOfCompany(server.database.db, school.companyId, 'OPENPIX:CHARGE_COMPLETED');
  assert.ok(events.some((e) => (e.payload as any).charge?.correlationID === 'mensalidade-2'));
  // Paid once only.
  const again = await payBoleto(charge.paymentMethods.boleto.boletoBarcode);
  assert.is(again.status, 400);
  assert.equal(again.body, { error: 'The charge is already paid' });
});

test('paid late: the value carries the fine and the interest, each reported', async () => {
  const charge = await boletoCharge('mensalidade-3', { fines: { value: 200 }, interests: { value: 100 } });
  await advanceCompanyClock(server, school, 15 * 86_400);
  const res = await payBoleto(charge.paymentMethods.boleto.boletoBarcode);
  assert.is(res.status, 200, res.text);
  const tx = res.body.boletoTransaction;
  assert.ok(tx.finesValue > 0, 'a fine');
  assert.ok(tx.interestsValue > 0, 'interest');
  assert.is(tx.value, 242898 + tx.finesValue + tx.interestsValue);
  assert.is(tx.finesValue, Math.round((242898 * 200) / 10000), '2% fine');
  assert.is(tx.charge.value, 242898);
});

test('a boleto of another bank, or of no charge, is not ours; a broken one is refused', async () => {
  const outside = await payBoleto('34199139100001258901570018472653092084512000');
  assert.is(outside.status, 404);
  assert.equal(outside.body, { error: 'No charge of this server has this boleto' });
  const charge = await boletoCharge('mensalidade-4');
  const code: string = charge.paymentMethods.boleto.boletoBarcode;
  const broken = code.slice(0, 10) + ((Number(code[10]) + 1) % 10) + code.slice(11);
  const refused = await payBoleto(broken);
  assert.is(refused.status, 400);
  assert.match(refused.body.error, /^Invalid boleto barcode/);
});

test('a boleto the company pays is a BOLETO_OUT; lists filter and page; another company sees none', async () => {
  await fund(server, school.accountId, 500_000);
  const paid = await server.client.post(
    '/api/v1/payment',
    {
      type: 'BOLETO',
      boletoBarcode: '34191570071847265309820845120003913910000125890',
      correlationID: 'conta-de-luz',
      autoApprove: true,
    },
    { auth: school.appID },
  );
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.payment.status, 'CONFIRMED');
  const outs = await server.client.get('/api/v1/boleto-transaction?type=BOLETO_OUT', { auth: school.appID });
  assert.is(outs.status, 200, outs.text);
  assert.is(outs.body.boletoTransactions.length, 1);
  const out = outs.body.boletoTransactions[0];
  assert.is(out.type, 'BOLETO_OUT');
  assert.is(out.value, paid.body.payment.value);
  assert.is(out.settledAt, undefined);
  assert.equal(out.payment, {
    correlationID: 'conta-de-luz',
    boletoBarcode: '34199139100001258901570018472653092084512000',
    boletoDigitable: '34191570071847265309820845120003913910000125890',
  });

  const all = await server.client.get('/api/v1/boleto-transaction', { auth: school.appID });
  assert.is(all.body.status, 'OK');
  assert.is(all.body.boletoTransactions.length, 3);
  assert.equal(all.body.pageInfo, { skip: 0, limit: 100, hasPreviousPage: false, hasNextPage: false });
  const times = all.body.boletoTransactions.map((t: any) => t.createdAt);
  assert.equal(times, [...times].sort().reverse(), 'newest first');
  const page = await server.client.get('/api/v1/boleto-transaction?limit=2&skip=1', { auth: school.appID });
  assert.is(page.body.boletoTransactions.length, 2);
  assert.equal(page.body.pageInfo, { skip: 1, limit: 2, hasPreviousPage: true, hasNextPage: false });
  const first = await server.client.get('/api/v1/boleto-transaction?limit=1', { auth: school.appID });
  assert.is(first.body.pageInfo.hasNextPage, true);
  const settled = await server.client.get(
    `/api/v1/boleto-transaction?settledStart=${encodeURIComponent('2000-01-01T00:00:00Z')}`,
    { auth: school.appID },
  );
  assert.ok(
    settled.body.boletoTransactions.every((t: any) => t.type === 'BOLETO_IN'),
    'only settled ones',
  );
  assert.is(settled.body.boletoTransactions.length, 2);
  const future = await server.client.get('/api/v1/boleto-transaction?start=2999-01-01T00:00:00Z', {
    auth: school.appID,
  });
  assert.is(future.body.boletoTransactions.length, 0);
  const deep = await server.client.get('/api/v1/boleto-transaction?skip=10001', { auth: school.appID });
  assert.is(deep.status, 400);

  const id = out.boletoTransactionID;
  const mine = await server.client.get(`/api/v1/boleto-transaction/${id}`, { auth: school.appID });
  assert.equal(mine.body, { boletoTransaction: out });
  const theirs = await server.client.get(`/api/v1/boleto-transaction/${id}`, { auth: other.appID });
  assert.is(theirs.status, 404);
  assert.equal(theirs.body, { error: 'Boleto transaction not found' });
  const none = await server.client.get('/api/v1/boleto-transaction', { auth: other.appID });
  assert.is(none.body.boletoTransactions.length, 0);
});

test.run();
