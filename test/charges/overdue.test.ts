// Platform OVERDUE (and BOLETO) charges: a cobv with fines, daily interests and the six
// discount modalities; the amount due today; the largest live fixed-date discount wins;
// amounts rounded to the nearest cent; the same amounts in the cobv payload.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brasiliaDate } from '../../src/lib/brasilia';
import { addCalendarDays } from '../../src/lib/business-days';
import { startTestServer, type TestServer } from '../support/server';
import { advanceClock, chargesCompany, decodeBrCode, fetchPayload, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server, { name: 'Aurora Moda Ltda' });
});
test.after(async () => server.close());

const create = (body: Record<string, unknown>) => server.client.post('/api/v1/charge', body, { auth: acme.appID });
const DUE = '2027-03-10'; // a Wednesday, a business day

const overdue = {
  type: 'OVERDUE',
  correlationID: 'mensalidade-2026-04-0392',
  value: 45000,
  comment: 'Mensalidade abril/2026',
  daysForDueDate: 10,
  daysAfterDueDate: 15,
  interests: { value: 33 },
  fines: { value: 200 },
  discount: {
    modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
    discountFixedDate: [
      { daysActive: 5, value: 2000 },
      { daysActive: 2, value: 1000 },
    ],
  },
  customer: {
    name: 'Rafael Souza Lima',
    taxID: '39053344705',
    email: 'rafael.lima@gmail.com',
    phone: '+5521998765432',
  },
};

async function payloadOn(brCode: string, dpp: string) {
  const res = await fetchPayload(server, `${decodeBrCode(brCode).locationUrl}?DPP=${dpp}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.payload.valor;
}

test('the seed example: a cobv due in 10 days, payable 15 more, discount 2000 today', async () => {
  const res = await create(overdue);
  assert.is(res.status, 200, res.text);
  const c = res.body.charge;
  const due = addCalendarDays(brasiliaDate(new Date()), 10);
  assert.is(c.type, 'OVERDUE');
  assert.is(c.status, 'ACTIVE');
  assert.is(c.dueDate, `${due}T23:59:59.999-03:00`);
  assert.is(c.expiresDate, `${addCalendarDays(due, 15)}T23:59:59.999-03:00`);
  assert.is(c.daysForDueDate, 10);
  assert.is(c.daysAfterDueDate, 15);
  assert.equal(c.interests, { value: 33 });
  assert.equal(c.fines, { value: 200 });
  assert.equal(c.discountSettings, overdue.discount);
  assert.is(c.discount, 2000);
  assert.is(c.valueWithDiscount, 43000);
  assert.is(c.valueToPay, 43000);
  assert.match(decodeBrCode(c.brCode).locationUrl!, /\/qr\/v2\/cobv\/[0-9a-f-]{36}$/);
  assert.is(decodeBrCode(c.brCode).amount, undefined);

  const cobv = await server.client.get(`/pix/v2/cobv/${c.identifier}`, { auth: acme.bearer });
  assert.is(cobv.status, 200, cobv.text);
  assert.equal(cobv.body.calendario, { criacao: c.createdAt, dataDeVencimento: due, validadeAposVencimento: 15 });
  assert.equal(cobv.body.valor, {
    original: '450.00',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 2, valorPerc: '0.33' },
    desconto: {
      modalidade: 1,
      descontoDataFixa: [
        { data: addCalendarDays(due, -5), valorPerc: '20.00' },
        { data: addCalendarDays(due, -2), valorPerc: '10.00' },
      ],
    },
  });
  assert.equal(cobv.body.devedor, { cpf: '39053344705', nome: 'Rafael Souza Lima', email: 'rafael.lima@gmail.com' });
  const today = await payloadOn(c.brCode, brasiliaDate(new Date()));
  assert.equal(today, {
    original: '450.00',
    multa: '0.00',
    juros: '0.00',
    abatimento: '0.00',
    desconto: '20.00',
    final: '430.00',
  });
});

test('fixed-date discounts: the largest live item wins; none on or after the due date', async () => {
  const res = await create({
    ...overdue,
    correlationID: 'fixed-largest',
    daysForDueDate: undefined,
    dueDate: `${DUE}T12:00:00.000Z`,
    discount: {
      modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
      discountFixedDate: [
        { daysActive: 5, value: 1000 },
        { daysActive: 2, value: 2000 },
        { daysActive: 8, value: 1500 },
      ],
    },
  });
  assert.is(res.status, 200, res.text);
  const { brCode } = res.body;
  assert.is(res.body.charge.discount, 2000);
  assert.is((await payloadOn(brCode, '2027-03-01')).desconto, '20.00');
  assert.is((await payloadOn(brCode, '2027-03-08')).desconto, '20.00');
  assert.is((await payloadOn(brCode, '2027-03-09')).desconto, '0.00');
  assert.is((await payloadOn(brCode, DUE)).final, '450.00');

  const pct = await create({
    ...overdue,
    correlationID: 'fixed-percent',
    daysForDueDate: undefined,
    dueDate: `${DUE}T12:00:00.000Z`,
    value: 12345,
    discount: { modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 3, value: 250 }] },
  });
  assert.is(pct.status, 200, pct.text);
  // 2.5% of 123.45 = 3.08625 -> 3.09
  assert.equal(await payloadOn(pct.body.brCode, '2027-03-07'), {
    original: '123.45',
    multa: '0.00',
    juros: '0.00',
    abatimento: '0.00',
    desconto: '3.09',
    final: '120.36',
  });
});

test('per-day discount modalities (running and business days), rounded to the cent', async () => {
  const base = { ...overdue, daysForDueDate: undefined, dueDate: `${DUE}T12:00:00.000Z`, value: 10001 };
  const cases: Array<[string, number, string, string]> = [
    // modality, value, DPP, expected discount
    ['VALUE_PER_RUNNING_DAY_ADVANCE', 15, '2027-03-03', '1.05'], // 7 days x 0.15
    ['VALUE_PER_BUSINESS_DAY_ADVANCE', 15, '2027-03-03', '0.75'], // 5 business days x 0.15
    ['PERCENTAGE_PER_RUNNING_DAY_ADVANCE', 50, '2027-03-09', '0.50'], // 1 day x 0.5% of 100.01 = 0.50005
    ['PERCENTAGE_PER_BUSINESS_DAY_ADVANCE', 50, '2027-03-03', '2.50'], // 5 x 0.5% of 100.01 = 2.50025
  ];
  let n = 0;
  for (const [modality, value, dpp, desconto] of cases) {
    const res = await create({ ...base, correlationID: `per-day-${n++}`, discount: { modality, value } });
    assert.is(res.status, 200, `${modality}: ${res.text}`);
    assert.is((await payloadOn(res.body.brCode, dpp)).desconto, desconto, modality);
  }
});

test('OVERDUE rules: due date, windows, limits, a customer with a tax id; BOLETO is a cobv too', async () => {
  const base = { ...overdue, correlationID: 'rule', daysForDueDate: undefined, dueDate: `${DUE}T12:00:00.000Z` };
  const refused: Array<[Record<string, unknown>, string]> = [
    [{ ...base, dueDate: undefined }, 'body.dueDate'],
    [{ ...base, customer: { name: 'Beatriz Nogueira', email: 'beatriz.nogueira@outlook.com' } }, 'body.customer.taxID'],
    [{ ...base, customer: undefined }, 'body.customer.taxID'],
    [{ ...base, type: 'BOLETO', customer: undefined }, 'body.customer.taxID'],
    [{ ...base, daysForDueDate: 3 }, 'body.daysForDueDate'],
    [{ ...base, dueDate: '2020-01-01T00:00:00Z' }, 'body.dueDate'],
    [{ ...base, expiresIn: 3600 }, 'body.expiresIn'],
    [{ ...base, fines: { value: 10000 } }, 'body.fines.value'],
    [
      {
        ...base,
        discount: {
          modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
          discountFixedDate: [{ daysActive: 1, value: 45000 }],
        },
      },
      'body.discount.discountFixedDate[0].value',
    ],
    [
      {
        ...base,
        discount: { modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 1, value: 10000 }] },
      },
      'body.discount.discountFixedDate[0].value',
    ],
    [
      { ...base, discount: { modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE', value: 100 } },
      'body.discount.discountFixedDate',
    ],
    [{ ...base, discount: { modality: 'VALUE_PER_RUNNING_DAY_ADVANCE' } }, 'body.discount.value'],
    [{ ...base, discount: { modality: 'VALUE_PER_RUNNING_DAY_ADVANCE', value: 45000 } }, 'body.discount.value'],
    [
      {
        ...base,
        discount: {
          modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
          discountFixedDate: [1, 2, 3, 4].map((d) => ({ daysActive: d, value: 10 })),
        },
      },
      'body.discount.discountFixedDate',
    ],
    [
      {
        ...base,
        discount: {
          modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
          discountFixedDate: [
            { daysActive: 2, value: 10 },
            { daysActive: 2, value: 20 },
          ],
        },
      },
      'body.discount.discountFixedDate',
    ],
  ];
  for (const [body, field] of refused) {
    const res = await create(body);
    assert.is(res.status, 400, `${field}: ${res.text}`);
    assert.ok(
      res.body.details.some((d: any) => d.field === field),
      `${field}: ${res.text}`,
    );
  }

  const perDay = await create({
    type: 'OVERDUE',
    correlationID: 'mensalidade-2026-04-0393',
    value: 45000,
    daysForDueDate: 10,
    discount: { modality: 'PERCENTAGE_PER_RUNNING_DAY_ADVANCE', value: 50 },
    customer: { name: 'Beatriz Nogueira', taxID: '52998224725', email: 'beatriz.nogueira@outlook.com' },
  });
  assert.is(perDay.status, 200, perDay.text);
  // 10 days early at 0.5% a day: 5% of 450.00
  assert.is(perDay.body.charge.discount, 2250);
  assert.is(perDay.body.charge.valueToPay, 42750);
  assert.is(perDay.body.charge.daysAfterDueDate, 30);
  const cobv = await server.client.get(`/pix/v2/cobv/${perDay.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(cobv.status, 200, cobv.text);
  assert.equal(cobv.body.devedor, {
    cpf: '52998224725',
    nome: 'Beatriz Nogueira',
    email: 'beatriz.nogueira@outlook.com',
  });
  assert.equal(cobv.body.valor.desconto, { modalidade: 5, valorPerc: '0.50' });
  assert.is((await payloadOn(perDay.body.brCode, brasiliaDate(new Date()))).final, '427.50');

  const boleto = await create({
    type: 'BOLETO',
    correlationID: 'boleto-1',
    value: 9900,
    dueDate: `${DUE}T12:00:00.000Z`,
    customer: { name: 'Ana', taxID: '12345678909' },
  });
  assert.is(boleto.status, 200, boleto.text);
  assert.is(boleto.body.charge.type, 'BOLETO');
  assert.is(
    (await server.client.get(`/pix/v2/cobv/${boleto.body.charge.identifier}`, { auth: acme.bearer })).status,
    200,
  );

  // a new expiry moves the last payable day (validadeAposVencimento)
  const patched = await server.client.patch(
    '/api/v1/charge/boleto-1',
    { expiresDate: '2027-03-20T23:59:59.000Z' },
    { auth: acme.appID },
  );
  assert.is(patched.status, 200, patched.text);
  assert.is(patched.body.charge.expiresDate, '2027-03-20T23:59:59.999-03:00');
  assert.is(patched.body.charge.daysAfterDueDate, 10);
  const revised = await server.client.get(`/pix/v2/cobv/${boleto.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(revised.body.revisao, 1);
  assert.is(revised.body.calendario.validadeAposVencimento, 10);
  const before = await server.client.patch(
    '/api/v1/charge/boleto-1',
    { expiresDate: '2027-03-01T00:00:00.000Z' },
    { auth: acme.appID },
  );
  assert.is(before.status, 400);
});

test('after the due date: fine once and interest per running day, in the charge and the payload', async () => {
  const res = await create({
    ...overdue,
    correlationID: 'late-one',
    daysForDueDate: undefined,
    dueDate: `${DUE}T12:00:00.000Z`,
    discount: undefined,
  });
  assert.is(res.status, 200, res.text);
  // 3 days late: fine 2% = 900; interest 0.33% x 3 of 45000 = 445.5 -> 446
  assert.equal(await payloadOn(res.body.brCode, '2027-03-13'), {
    original: '450.00',
    multa: '9.00',
    juros: '4.46',
    abatimento: '0.00',
    desconto: '0.00',
    final: '463.46',
  });
  await advanceClock(server, acme, Math.ceil((Date.parse('2027-03-13T12:00:00Z') - Date.now()) / 1000));
  const after = await server.client.get('/api/v1/charge/late-one', { auth: acme.appID });
  assert.is(after.body.charge.status, 'ACTIVE');
  assert.is(after.body.charge.valueToPay, 46346);
  assert.is(after.body.charge.discount, 0);
  // the last payable day is due + 15; then the charge is EXPIRED
  await advanceClock(server, acme, 13 * 86400);
  assert.is((await server.client.get('/api/v1/charge/late-one', { auth: acme.appID })).body.charge.status, 'EXPIRED');
});

test.run();
