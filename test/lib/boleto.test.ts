import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  barcodeToDigitableLine,
  buildBankBarcode,
  dueDateFromFactor,
  factorForDueDate,
  formatDigitableLine,
  validateBoleto,
} from '../../src/lib/boleto';
import { cents } from '../../src/lib/money';

const TODAY = '2026-05-01';

// --- independent check-digit helpers (written from the FEBRABAN rules, not from the module) ---

function dvMod10(s: string): number {
  let sum = 0;
  s.split('')
    .reverse()
    .forEach((ch, i) => {
      const p = Number(ch) * (i % 2 === 0 ? 2 : 1);
      sum += Math.floor(p / 10) + (p % 10);
    });
  return sum % 10 === 0 ? 0 : 10 - (sum % 10);
}

function rest11(s: string): number {
  let sum = 0;
  s.split('')
    .reverse()
    .forEach((ch, i) => {
      sum += Number(ch) * (2 + (i % 8));
    });
  return sum % 11;
}

function dvBank11(s: string): number {
  const dv = 11 - rest11(s);
  return [0, 10, 11].includes(dv) ? 1 : dv;
}

function dvUtility11(s: string): number {
  const r = rest11(s);
  return r === 0 || r === 1 ? 0 : r === 10 ? 1 : 11 - r;
}

// bank barcode with an explicit factor (lets tests use any factor)
function bankBarcode(bank: string, factor: string, amount: string, free: string): string {
  const body = bank + '9' + factor + amount.padStart(10, '0') + free;
  return body.slice(0, 4) + String(dvBank11(body)) + body.slice(4);
}

function bankLine(barcode: string): string {
  const f1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const f2 = barcode.slice(24, 34);
  const f3 = barcode.slice(34, 44);
  return f1 + dvMod10(f1) + f2 + dvMod10(f2) + f3 + dvMod10(f3) + barcode[4] + barcode.slice(5, 19);
}

function utilityBarcode(segment: string, valueId: string, value11: string, rest29: string): string {
  const body = '8' + segment + valueId + value11 + rest29; // 43 digits without the DV
  const dv = valueId === '6' || valueId === '7' ? dvMod10(body) : dvUtility11(body);
  return body.slice(0, 3) + String(dv) + body.slice(3);
}

function utilityLine(barcode: string): string {
  const useMod10 = barcode[2] === '6' || barcode[2] === '7';
  let line = '';
  for (let i = 0; i < 4; i++) {
    const block = barcode.slice(i * 11, i * 11 + 11);
    line += block + String(useMod10 ? dvMod10(block) : dvUtility11(block));
  }
  return line;
}

function setDigit(s: string, index: number, digit: string): string {
  return s.slice(0, index) + digit + s.slice(index + 1);
}

function reasonOf(input: string, today = TODAY): string {
  const r = validateBoleto(input, today);
  if (r.ok) throw new Error(`expected failure for ${input}`);
  return r.reason;
}

function valueOf(input: string, today = TODAY) {
  const r = validateBoleto(input, today);
  if (!r.ok) throw new Error(`expected success for ${input}: ${r.reason}`);
  return r.value;
}

// --- bank boletos ---

test('real-format Bradesco line, hand-checked', () => {
  // 23793.38128 60007.827136 95000.063305 9 75520000370000
  // field 1 "237933812": from the right 2*2=4, 1*1=1, 8*2=16->7, 3, 3*2=6, 9, 7*2=14->5, 3, 2*2=4
  //   sum 42 -> DV (10 - 2) = 8                                              (printed: 8)
  // field 2 "6000782713": 3*2=6, 1, 7*2=14->5, 2, 8*2=16->7, 7, 0, 0, 0, 6 -> 34 -> DV 6  (printed: 6)
  // field 3 "9500006330": 0, 3, 3*2=6, 6, 0, 0, 0, 0, 5*2=10->1, 9 -> 25 -> DV 5        (printed: 5)
  // barcode 2379 [9] 7552 0000370000 3381260007827139500006330: mod 11 weighted sum = 750,
  //   750 % 11 = 2 -> DV 11 - 2 = 9                                           (printed: 9)
  // factor 7552 -> 1997-10-07 + 7552 days = 2018-06-11 (within 10 years of today: pre-reset)
  const v = valueOf('23793.38128 60007.827136 95000.063305 9 75520000370000');
  assert.is(v.kind, 'bank');
  assert.is(v.barcode, '23799755200003700003381260007827139500006330');
  assert.is(v.digitableLine, '23793381286000782713695000063305975520000370000');
  assert.is(v.amount, 370000);
  assert.is(v.dueDate, '2018-06-11');
  assert.is(v.bankCode, '237');
  assert.equal(v.beneficiary, { bankCode: '237', bankName: 'BCO BRADESCO S.A.' });
  // the same boleto given as its barcode
  assert.equal(valueOf('23799755200003700003381260007827139500006330'), v);
});

test('buildBankBarcode + barcodeToDigitableLine agree with the independent helpers', () => {
  const free = '1234567890123456789012345';
  const barcode = buildBankBarcode({ bankCode: '341', amount: cents(123456), dueDate: '2026-03-10', freeField: free });
  // factor: 1000 + (2026-03-10 - 2025-02-22 = 381 days) = 1381
  assert.is(barcode, bankBarcode('341', '1381', '123456', free));
  assert.is(barcodeToDigitableLine(barcode), bankLine(barcode));
  const v = valueOf(bankLine(barcode));
  assert.is(v.barcode, barcode);
  assert.is(v.amount, 123456);
  assert.is(v.dueDate, '2026-03-10');
  assert.equal(v.beneficiary, { bankCode: '341', bankName: 'ITAÚ UNIBANCO S.A.' });
  assert.is(formatDigitableLine(v.digitableLine).replace(/[ .]/g, ''), v.digitableLine);
  assert.ok(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/.test(formatDigitableLine(v.digitableLine)));
});

test('many generated bank boletos validate (covers DV 0/10/11 -> 1)', () => {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 300; i++) {
    const amount = String(next() % 10_000_000);
    const free = String(next()).padStart(13, '0').slice(0, 13) + String(next()).padStart(12, '0').slice(0, 12);
    const barcode = bankBarcode('104', '1500', amount, free);
    const v = valueOf(bankLine(barcode));
    assert.is(v.barcode, barcode);
    assert.is(v.amount, Number(amount));
    assert.is(valueOf(barcode).digitableLine, bankLine(barcode));
  }
});

test('unknown bank: code without name; formatting characters ignored', () => {
  const barcode = bankBarcode('999', '0000', '500', '0'.repeat(25));
  const v = valueOf(formatDigitableLine(bankLine(barcode)).replace(/ /g, ' - '));
  assert.equal(v.beneficiary, { bankCode: '999' });
  assert.is(v.dueDate, null); // factor 0000: no due date
  assert.is(v.amount, 500);
});

test('tampered bank lines fail with the failing check', () => {
  const line = bankLine(bankBarcode('001', '1381', '10000', '0000001234567890123456789'));
  assert.is(
    reasonOf(setDigit(line, 9, String((Number(line[9]) + 1) % 10))),
    'field 1 check digit (mod 10) does not match',
  );
  assert.is(
    reasonOf(setDigit(line, 5, String((Number(line[5]) + 3) % 10))),
    'field 1 check digit (mod 10) does not match',
  );
  assert.is(
    reasonOf(setDigit(line, 12, String((Number(line[12]) + 1) % 10))),
    'field 2 check digit (mod 10) does not match',
  );
  assert.is(
    reasonOf(setDigit(line, 25, String((Number(line[25]) + 1) % 10))),
    'field 3 check digit (mod 10) does not match',
  );
  // amount 0000010000 -> 0000020000: fields 1-3 intact, general DV must catch it
  const tampered = setDigit(line, 42, '2');
  assert.is(tampered.slice(37), '0000020000');
  assert.is(reasonOf(tampered), 'general check digit (mod 11) does not match');
  const barcode = bankBarcode('001', '1381', '10000', '0000001234567890123456789');
  assert.is(reasonOf(setDigit(barcode, 18, '1')), 'general check digit (mod 11) does not match');
  assert.is(reasonOf(setDigit(barcode, 3, '0')), 'currency code must be 9 (real)');
});

test('shape errors', () => {
  assert.is(reasonOf('1234'), 'barcode must have 44, 47 or 48 digits');
  assert.is(reasonOf(''), 'barcode must have 44, 47 or 48 digits');
  assert.is(reasonOf('2379x'), 'boleto must contain only digits (spaces, dots and dashes are ignored)');
  assert.is(reasonOf('1'.repeat(48)), 'a 48-digit line must start with 8 (utility/tax boleto)');
});

// --- due-date factor ---

test('factor reset on 2025-02-22', () => {
  assert.is(dueDateFromFactor(9999, TODAY), '2025-02-21'); // last pre-reset day
  assert.is(dueDateFromFactor(1000, TODAY), '2025-02-22'); // pre-reset 2000-07-03 is > 10 years ago
  assert.is(dueDateFromFactor(1001, TODAY), '2025-02-23');
  assert.is(dueDateFromFactor(9000, TODAY), '2022-05-29'); // 1997-10-07 + 9000 days, < 10 years ago
  assert.is(dueDateFromFactor(0, TODAY), null);
  // window edge: 2022-05-29 + 3650 days = 2032-05-26 still pre-reset, one day later post-reset
  assert.is(dueDateFromFactor(9000, '2032-05-26'), '2022-05-29');
  assert.is(dueDateFromFactor(9000, '2032-05-27'), '2047-01-18'); // 2025-02-22 + 8000 days
  assert.is(factorForDueDate('2025-02-21'), 9999);
  assert.is(factorForDueDate('2025-02-22'), 1000);
  assert.is(factorForDueDate('2025-02-23'), 1001);
  assert.is(factorForDueDate('2022-05-29'), 9000);
  assert.is(factorForDueDate(null), 0);
  assert.throws(() => factorForDueDate('2000-07-02'));
});

test('factor through validateBoleto', () => {
  const free = '9'.repeat(25);
  assert.is(valueOf(bankBarcode('033', '1000', '1', free)).dueDate, '2025-02-22');
  assert.is(valueOf(bankLine(bankBarcode('033', '1001', '1', free))).dueDate, '2025-02-23');
  assert.is(valueOf(bankBarcode('033', '9000', '1', free)).dueDate, '2022-05-29');
  const b = buildBankBarcode({ bankCode: '260', amount: cents(1), dueDate: '2025-02-22', freeField: free });
  assert.is(b.slice(5, 9), '1000');
  assert.equal(valueOf(b).beneficiary, { bankCode: '260', bankName: 'NU PAGAMENTOS - IP' });
});

// --- utility (arrecadação) boletos ---

test('real-format utility line and barcode', () => {
  // 85890000460-9 52460179160-5 60759305086-5 83148300001-0: value id 8 -> mod 11 blocks,
  // segment 5 (government), amount = barcode positions 5-15 "00004605246" = R$ 46,052.46
  const v = valueOf('85890000460-9 52460179160-5 60759305086-5 83148300001-0');
  assert.is(v.kind, 'utility');
  assert.is(v.barcode, '85890000460524601791606075930508683148300001');
  assert.is(v.amount, 4605246);
  assert.is(v.segment, '5');
  assert.is(v.valueKind, 'amount');
  assert.is(v.dueDate, null);
  // 8362 0000000667 ...: value id 6 -> mod 10, general DV "2" at position 4, amount 00000006678 = R$ 66.78
  const w = valueOf('83620000000667800481001809756573100158963608');
  assert.is(w.amount, 6678);
  assert.is(w.segmentName, 'Energia elétrica e gás');
  assert.equal(w.beneficiary, { companyId: '0048' });
  assert.is(w.digitableLine, utilityLine(w.barcode));
  assert.is(formatDigitableLine(w.digitableLine), '83620000000-5 66780048100-0 18097565731-3 00158963608-1');
});

test('generated utility boletos, mod 10 and mod 11, all value ids', () => {
  let seed = 777;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (const valueId of ['6', '7', '8', '9']) {
    for (let i = 0; i < 100; i++) {
      const value = String(next() % 100_000_000).padStart(11, '0');
      const rest = (String(next()).padStart(10, '0') + String(next()).padStart(10, '0') + '123456789').slice(0, 29);
      const barcode = utilityBarcode(String(1 + (i % 9)), valueId, value, rest);
      const v = valueOf(utilityLine(barcode));
      assert.is(v.barcode, barcode);
      assert.is(barcodeToDigitableLine(barcode), utilityLine(barcode));
      const real = valueId === '6' || valueId === '8';
      assert.is(v.amount, real ? Number(value) : 0);
      assert.is(v.referenceValue, real ? undefined : value);
    }
  }
});

test('segment 6 identifies the company by CNPJ base', () => {
  const barcode = utilityBarcode('6', '8', '00000012345', '12345678' + '0'.repeat(21));
  const v = valueOf(barcode);
  assert.equal(v.beneficiary, { companyId: '12345678' });
  assert.is(v.amount, 12345);
});

test('tampered utility lines fail with the failing check', () => {
  const b10 = utilityBarcode('2', '6', '00000010000', '0123' + '5'.repeat(25));
  const l10 = utilityLine(b10);
  assert.is(
    reasonOf(setDigit(l10, 11, String((Number(l10[11]) + 1) % 10))),
    'field 1 check digit (mod 10) does not match',
  );
  assert.is(
    reasonOf(setDigit(b10, 3, String((Number(b10[3]) + 1) % 10))),
    'general check digit (mod 10) does not match',
  );
  const b11 = utilityBarcode('3', '8', '00000010000', '0123' + '5'.repeat(25));
  const l11 = utilityLine(b11);
  assert.is(
    reasonOf(setDigit(l11, 30, String((Number(l11[30]) + 1) % 10))),
    'field 3 check digit (mod 11) does not match',
  );
  assert.is(
    reasonOf(setDigit(b11, 3, String((Number(b11[3]) + 1) % 10))),
    'general check digit (mod 11) does not match',
  );
  assert.is(reasonOf(setDigit(b11, 2, '5')), 'value identifier (third digit) must be 6, 7, 8 or 9');
});

test.run();
