import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyBasisPoints,
  cents,
  formatDecimalAmount,
  parseDecimalAmount,
  percentOf,
  sumCents,
} from '../../src/lib/money';

test('cents brands safe integers, negative ones included', () => {
  assert.is(cents(0), 0);
  assert.is(cents(-250), -250);
  assert.throws(() => cents(1.5), /safe integer/);
  assert.throws(() => cents(Number.NaN), /safe integer/);
  assert.throws(() => cents(2 ** 53), /safe integer/);
});

test('parseDecimalAmount converts decimal strings exactly', () => {
  assert.equal(parseDecimalAmount('123.45'), { ok: true, value: 12345 });
  assert.equal(parseDecimalAmount('0.00'), { ok: true, value: 0 });
  assert.equal(parseDecimalAmount('0.01'), { ok: true, value: 1 });
  assert.equal(parseDecimalAmount('0.29'), { ok: true, value: 29 });
  assert.equal(parseDecimalAmount('1.10'), { ok: true, value: 110 });
  assert.equal(parseDecimalAmount('9999999999.99'), { ok: true, value: 999999999999 });
  assert.equal(parseDecimalAmount('0123.45'), { ok: true, value: 12345 });
});

test('parseDecimalAmount rejects every other shape', () => {
  const rejected = [
    '1.5',
    '1,50',
    '-1.00',
    ' 1.00',
    '1.00 ',
    '1e3',
    '01234567890.00',
    '1',
    '.50',
    '1.',
    '1.000',
    '',
    'abc',
    '+1.00',
    '1_000.00',
  ];
  for (const input of rejected) {
    const result = parseDecimalAmount(input);
    assert.is(result.ok, false, `should reject ${JSON.stringify(input)}`);
    if (!result.ok) assert.match(result.reason, /exactly 2 decimals/);
  }
});

test('formatDecimalAmount writes two decimals', () => {
  assert.is(formatDecimalAmount(cents(12345)), '123.45');
  assert.is(formatDecimalAmount(cents(5)), '0.05');
  assert.is(formatDecimalAmount(cents(0)), '0.00');
  assert.is(formatDecimalAmount(cents(100)), '1.00');
  assert.is(formatDecimalAmount(cents(-1234)), '-12.34');
  assert.is(formatDecimalAmount(cents(999999999999)), '9999999999.99');
});

test('parse and format round trip', () => {
  for (const s of ['0.00', '0.07', '0.10', '1.00', '123.45', '1000000.01', '9999999999.99']) {
    const parsed = parseDecimalAmount(s);
    assert.ok(parsed.ok);
    if (parsed.ok) assert.is(formatDecimalAmount(parsed.value), s);
  }
  for (const n of [0, 1, 9, 10, 99, 100, 101, 12345, 700000001]) {
    const parsed = parseDecimalAmount(formatDecimalAmount(cents(n)));
    assert.equal(parsed, { ok: true, value: n });
  }
});

test('percentOf rounds half up to the cent', () => {
  assert.is(percentOf(cents(10001), '2.50'), 250); // 250.025
  assert.is(percentOf(cents(10020), '2.50'), 251); // 250.5
  assert.is(percentOf(cents(10019), '2.50'), 250); // 250.475
  assert.is(percentOf(cents(10000), 2.5), 250);
  assert.is(percentOf(cents(10000), '100'), 10000);
  assert.is(percentOf(cents(10000), 0), 0);
  assert.is(percentOf(cents(1), '50'), 1); // 0.5
  assert.is(percentOf(cents(1), '49.99'), 0);
  assert.is(percentOf(cents(333), '33.333'), 111); // 110.99889
  assert.is(percentOf(cents(-10020), '2.50'), -251); // half away from zero
  assert.is(percentOf(cents(100000), 1e-7), 0);
  assert.is(percentOf(cents(29), 10), 3); // 2.9
});

test('percentOf is exact where floats are not', () => {
  // In floats 10000 * 1.005 / 100 is 100.49999999999999, which would round down.
  assert.is(percentOf(cents(10000), '1.005'), 101); // 100.5
  assert.is(percentOf(cents(100), '1.005'), 1); // 1.005
});

test('percentOf rejects malformed percentages', () => {
  assert.throws(() => percentOf(cents(100), '2,50'), /decimal/);
  assert.throws(() => percentOf(cents(100), '-1'), /decimal/);
  assert.throws(() => percentOf(cents(100), Number.POSITIVE_INFINITY), /finite/);
  assert.throws(() => percentOf(1.5 as never, '1'), /safe integer/);
});

test('applyBasisPoints rounds half up to the cent', () => {
  assert.is(applyBasisPoints(cents(10001), 250), 250); // 250.025
  assert.is(applyBasisPoints(cents(10020), 250), 251); // 250.5
  assert.is(applyBasisPoints(cents(12345), 10000), 12345);
  assert.is(applyBasisPoints(cents(12345), 0), 0);
  assert.is(applyBasisPoints(cents(199), 50), 1); // 0.995
  assert.is(applyBasisPoints(cents(99), 50), 0); // 0.495
  assert.throws(() => applyBasisPoints(cents(100), 2.5), /basis points/);
});

test('sumCents adds exactly and guards the range', () => {
  assert.is(sumCents(), 0);
  assert.is(sumCents(cents(10), cents(20), cents(-5)), 25);
  assert.is(sumCents(cents(Number.MAX_SAFE_INTEGER - 1), cents(1)), Number.MAX_SAFE_INTEGER);
  assert.throws(() => sumCents(cents(Number.MAX_SAFE_INTEGER), cents(1)), /safe integer/);
});

test.run();
