// POST /boleto/validate (bank barcodes and lines, utility lines by mod 10 or mod 11, the due
// factor and its 2025-02-22 reset, errors naming the failing digit) and BOLETO payments.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { barcodeToDigitableLine, buildBankBarcode, validateBoleto } from '../../src/lib/boleto';
import { cents } from '../../src/lib/money';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { approve, advanceToLocalHour, balanceOf, fund, pay } from './helpers';

let server: TestServer;
let a: TestCompany;

const BARCODE = '34199139100001258901570018472653092084512000';
const LINE = '34191570071847265309820845120003913910000125890';

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client);
  await advanceToLocalHour(server, 12, a);
  await fund(server, a.accountId, 500_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const validate = (barcode: string) => server.client.post('/api/v1/boleto/validate', { barcode }, { auth: a.appID });

// A valid 44-digit utility barcode: the general check digit found by trying the ten.
function utilityBarcode(valueId: '6' | '7' | '8' | '9', amount: string): string {
  for (let dv = 0; dv < 10; dv++) {
    const code = `83${valueId}${dv}${amount}0019${'1234567890'.repeat(3)}`.slice(0, 44);
    if (validateBoleto(code, '2026-01-01').ok) return code;
  }
  throw new Error('no check digit fits');
}

test('a bank barcode and its digitable line answer amount in cents, due date, bank and beneficiary', async () => {
  const byBarcode = await validate(BARCODE);
  assert.is(byBarcode.status, 200, byBarcode.text);
  const boleto = byBarcode.body.boleto;
  assert.equal(
    { ...boleto, beneficiary: undefined },
    {
      barcode: BARCODE,
      digitableLine: LINE,
      amount: 125_890,
      dueDate: '2026-03-20',
      beneficiary: undefined,
      bank: { code: '341', name: 'ITAÚ UNIBANCO S.A.' },
      discount: 0,
      fine: 0,
      interest: 0,
      totalAmount: 125_890,
      payable: true,
    },
  );
  assert.is(boleto.beneficiary.taxID.type, 'BR:CNPJ');
  assert.ok(/^\d{14}$/.test(boleto.beneficiary.taxID.taxID));
  assert.equal((await validate(LINE)).body, byBarcode.body, 'the line decodes to the same boleto');
});

test('the due factor restarted at 1000 on 2025-02-22', async () => {
  const reset = buildBankBarcode({
    bankCode: '001',
    amount: cents(1_000),
    dueDate: '2025-02-22',
    freeField: '0'.repeat(25),
  });
  assert.is(reset.slice(5, 9), '1000');
  assert.is((await validate(reset)).body.boleto.dueDate, '2025-02-22');
  const last = buildBankBarcode({
    bankCode: '001',
    amount: cents(1_000),
    dueDate: '2025-02-21',
    freeField: '1'.repeat(25),
  });
  assert.is(last.slice(5, 9), '9999');
  assert.is((await validate(barcodeToDigitableLine(last))).body.boleto.dueDate, '2025-02-21');
  const noDue = buildBankBarcode({ bankCode: '237', amount: cents(0), dueDate: null, freeField: '2'.repeat(25) });
  const body = (await validate(noDue)).body.boleto;
  assert.equal([body.dueDate, body.amount, body.payable, body.bank.name], [undefined, 0, false, 'BCO BRADESCO S.A.']);
});

test('48-digit utility lines: mod 10 when the third digit is 6 or 7, mod 11 when 8 or 9', async () => {
  for (const valueId of ['6', '8'] as const) {
    const barcode = utilityBarcode(valueId, '00000012345');
    const res = await validate(barcodeToDigitableLine(barcode));
    assert.is(res.status, 200, res.text);
    assert.equal([res.body.boleto.barcode, res.body.boleto.amount, res.body.boleto.bank], [barcode, 12_345, undefined]);
  }
  const reference = await validate(barcodeToDigitableLine(utilityBarcode('7', '00000012345')));
  assert.is(reference.body.boleto.amount, 0, 'value id 7 carries a reference, not an amount');
  const line = barcodeToDigitableLine(utilityBarcode('8', '00000012345'));
  const broken = line.slice(0, 11) + String((Number(line[11]) + 1) % 10) + line.slice(12);
  assert.equal((await validate(broken)).body, {
    error: 'Invalid boleto barcode: field 1 check digit (mod 11) does not match',
  });
  const line6 = barcodeToDigitableLine(utilityBarcode('6', '00000012345'));
  const broken6 = line6.slice(0, 23) + String((Number(line6[23]) + 1) % 10) + line6.slice(24);
  assert.equal((await validate(broken6)).body, {
    error: 'Invalid boleto barcode: field 2 check digit (mod 10) does not match',
  });
});

test('errors name the failing check', async () => {
  const field2 = LINE.slice(0, 20) + String((Number(LINE[20]) + 1) % 10) + LINE.slice(21);
  assert.equal((await validate(field2)).body, {
    error: 'Invalid boleto barcode: field 2 check digit (mod 10) does not match',
  });
  const general = BARCODE.slice(0, 4) + String((Number(BARCODE[4]) + 1) % 10) + BARCODE.slice(5);
  assert.equal((await validate(general)).body, {
    error: 'Invalid boleto barcode: general check digit (mod 11) does not match',
  });
  assert.equal((await validate('3419' + '1'.repeat(44))).body, {
    error: 'Invalid boleto barcode: a 48-digit line must start with 8 (utility/tax boleto)',
  });
  assert.equal((await validate('834' + '0'.repeat(41))).body.error.startsWith('Invalid boleto barcode: '), true);
  const shortCode = await validate('1234');
  assert.is(shortCode.status, 400);
  assert.equal(shortCode.body.details[0].field, 'body.barcode');
});

test('a BOLETO payment takes value and destination from the boleto; approving pays it', async () => {
  const before = await balanceOf(server, a);
  const created = await pay(server, a, { type: 'BOLETO', boletoBarcode: LINE, correlationID: 'conta-luz' });
  assert.is(created.status, 200, created.text);
  assert.equal(
    [
      created.body.payment.type,
      created.body.payment.value,
      created.body.payment.status,
      created.body.payment.boletoBarcode,
    ],
    ['BOLETO', 125_890, 'CREATED', LINE],
  );
  const beneficiary = (await validate(BARCODE)).body.boleto;
  assert.equal(
    [created.body.destination.name, created.body.destination.taxID, created.body.destination.bank],
    [beneficiary.beneficiary.name, beneficiary.beneficiary.taxID.taxID, 'ITAÚ UNIBANCO S.A.'],
  );
  const paid = await approve(server, a, 'conta-luz');
  assert.is(paid.body.payment.status, 'CONFIRMED');
  assert.is((await balanceOf(server, a)).total, before.total - 125_890);
  // Recorded as a bill payment, not a Pix: the type filter finds it, PIX_OUT does not.
  const billPayments = (await server.client.get('/api/v1/transaction?type=BILL_PAYMENT', { auth: a.appID })).body
    .transactions;
  assert.equal(
    billPayments.map((t: { type: string; value: number }) => [t.type, t.value]),
    [['BILL_PAYMENT', 125_890]],
  );
  const pixOut = (await server.client.get('/api/v1/transaction?type=PIX_OUT', { auth: a.appID })).body.transactions;
  assert.ok(pixOut.every((t: { value: number }) => t.value !== 125_890));
  const noAmount = buildBankBarcode({ bankCode: '237', amount: cents(0), dueDate: null, freeField: '2'.repeat(25) });
  assert.equal((await pay(server, a, { type: 'BOLETO', boletoBarcode: noAmount, correlationID: 'sem-valor' })).body, {
    error: 'This boleto carries no amount to pay',
  });
  const general = BARCODE.slice(0, 4) + String((Number(BARCODE[4]) + 1) % 10) + BARCODE.slice(5);
  assert.equal((await pay(server, a, { type: 'BOLETO', boletoBarcode: general, correlationID: 'errado' })).body, {
    error: 'Invalid boleto barcode: general check digit (mod 11) does not match',
  });
  assert.is(
    (await pay(server, a, { type: 'BOLETO', boletoBarcode: BARCODE, value: 1, correlationID: 'com-valor' })).status,
    400,
    'a BOLETO takes no value',
  );
});

test('a boleto whose beneficiary is a company here is paid to the outside world: no boleto is issued here, so nothing is credited here', async () => {
  // A utility boleto (segment 6) names its beneficiary by CNPJ base; this one names company B.
  const b = await createCompany(server.client, { name: 'Energia Local', taxID: '11222333000181' });
  let barcode = '';
  for (let dv = 0; dv < 10 && !barcode; dv++) {
    const code = `868${dv}00000004321` + '11222333' + '9'.repeat(21);
    if (validateBoleto(code, '2026-01-01').ok) barcode = code;
  }
  assert.is(barcode.length, 44);
  const boleto = (await validate(barcode)).body.boleto;
  assert.equal([boleto.amount, boleto.beneficiary.taxID.taxID], [4_321, '11222333000181']);
  const before = { a: (await balanceOf(server, a)).total, b: (await balanceOf(server, b)).total };
  const res = await pay(server, a, {
    type: 'BOLETO',
    boletoBarcode: barcode,
    correlationID: 'boleto-de-b',
    autoApprove: true,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED', res.text);
  assert.is(res.body.destination.taxID, '11222333000181');
  assert.is.not(res.body.destination.bank, 'pixgate sandbox PSP');
  assert.is.not(res.body.transaction.creditParty.psp.id, '99999999');
  assert.equal(
    { a: (await balanceOf(server, a)).total, b: (await balanceOf(server, b)).total },
    { a: before.a - 4_321, b: before.b },
  );
  const bList = (await server.client.get('/api/v1/transaction', { auth: b.appID })).body.transactions;
  assert.equal(bList, [], 'B receives nothing here');
});

test.run();
