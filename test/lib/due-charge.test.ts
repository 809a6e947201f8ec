import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type DueChargeInput,
  dueChargeAmount,
  platformDiscountToCobv,
  platformSettingsOf,
} from '../../src/lib/due-charge';
import { cents } from '../../src/lib/money';

// 2026-03-10 is a Tuesday; 2026-03-15 a Sunday.
const BASE: DueChargeInput = {
  original: cents(100000),
  dueDate: '2026-03-10',
  paymentDate: '2026-03-10',
  validadeAposVencimento: 30,
};

function amounts(extra: Partial<DueChargeInput>) {
  const r = dueChargeAmount({ ...BASE, ...extra });
  if (!r.ok) throw new Error(`unexpected failure: ${r.reason}`);
  return r.value;
}

function reason(extra: Partial<DueChargeInput>): string {
  const r = dueChargeAmount({ ...BASE, ...extra });
  if (r.ok) throw new Error('expected failure');
  return r.reason;
}

test('late: multa 2% and juros 1% per month (calendar days)', () => {
  // 5 calendar days late (11..15). multa = 100000 * 2% = 2000
  // juros = 100000 * 1% / 30 * 5 = 166.666... -> 167
  const v = amounts({
    paymentDate: '2026-03-15',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 3, valorPerc: '1.00' },
  });
  assert.equal(v, { original: 100000, abatimento: 0, desconto: 0, juros: 167, multa: 2000, final: 102167 });
});

test('multa fixed value and juros calendar modalities 1, 2, 4', () => {
  const late = { paymentDate: '2026-03-15' };
  assert.is(amounts({ ...late, multa: { modalidade: 1, valorPerc: '15.50' } }).multa, 1550);
  // 1: R$ 0.50 per day * 5 days = 250
  assert.is(amounts({ ...late, juros: { modalidade: 1, valorPerc: '0.50' } }).juros, 250);
  // 2: 0.0333% per day: 100000 * 0.000333 * 5 = 166.5 -> 167 (half up, single rounding)
  assert.is(amounts({ ...late, juros: { modalidade: 2, valorPerc: '0.0333' } }).juros, 167);
  // 4: 12% per year: 100000 * 12% * 5 / 365 = 60000 / 365 = 164.38 -> 164
  assert.is(amounts({ ...late, juros: { modalidade: 4, valorPerc: '12.00' } }).juros, 164);
});

test('juros business-day modalities 5..8', () => {
  // business days d with 03-10 < d <= 03-15: 11, 12, 13 -> 3
  const late = { paymentDate: '2026-03-15' };
  // 5: R$ 0.50 * 3 = 150
  assert.is(amounts({ ...late, juros: { modalidade: 5, valorPerc: '0.50' } }).juros, 150);
  // 6: 0.10% per day: 100000 * 0.001 * 3 = 300
  assert.is(amounts({ ...late, juros: { modalidade: 6, valorPerc: '0.10' } }).juros, 300);
  // 7: 1% per month: 100000 * 1% * 3 / 30 = 100
  assert.is(amounts({ ...late, juros: { modalidade: 7, valorPerc: '1.00' } }).juros, 100);
  // 8: 12% per year: 100000 * 12% * 3 / 365 = 36000 / 365 = 98.63 -> 99
  assert.is(amounts({ ...late, juros: { modalidade: 8, valorPerc: '12.00' } }).juros, 99);
});

test('due date on a non-business day: next business day is on time', () => {
  // due Saturday 2026-02-14; Sun 15, Carnival Mon 16 / Tue 17 -> next business day Wed 18
  const rules = {
    dueDate: '2026-02-14',
    multa: { modalidade: 2 as const, valorPerc: '2.00' },
    juros: { modalidade: 3 as const, valorPerc: '1.00' },
  };
  const onTime = amounts({ ...rules, paymentDate: '2026-02-18' });
  assert.is(onTime.multa, 0);
  assert.is(onTime.juros, 0);
  assert.is(onTime.final, 100000);
  // Thu 19 is late, counted from the day after the original due date: 5 calendar days
  // juros = 100000 * 1% * 5 / 30 = 166.67 -> 167; multa 2000
  const late = amounts({ ...rules, paymentDate: '2026-02-19' });
  assert.is(late.juros, 167);
  assert.is(late.multa, 2000);
  assert.is(late.final, 102167);
  // business-day juros: 2026-02-14 < d <= 2026-02-19 -> 18, 19 = 2 days * R$1.00 = 200
  assert.is(
    amounts({ dueDate: '2026-02-14', paymentDate: '2026-02-19', juros: { modalidade: 5, valorPerc: '1.00' } }).juros,
    200,
  );
});

test('no multa/juros when paid on or before the due date', () => {
  const v = amounts({
    paymentDate: '2026-03-10',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 1, valorPerc: '1.00' },
  });
  assert.equal(v, { original: 100000, abatimento: 0, desconto: 0, juros: 0, multa: 0, final: 100000 });
});

test('validity window after the due date', () => {
  assert.is(amounts({ validadeAposVencimento: 5, paymentDate: '2026-03-15' }).final, 100000);
  assert.is(
    reason({ validadeAposVencimento: 5, paymentDate: '2026-03-16' }),
    'payment date is after the validity of the charge',
  );
  assert.is(
    reason({ validadeAposVencimento: 0, paymentDate: '2026-03-11' }),
    'payment date is after the validity of the charge',
  );
});

test('abatimento always applies', () => {
  // value: R$ 10.00 = 1000; percent: 5% of 100000 = 5000
  assert.is(amounts({ abatimento: { modalidade: 1, valorPerc: '10.00' } }).final, 99000);
  const late = amounts({
    paymentDate: '2026-03-12',
    abatimento: { modalidade: 2, valorPerc: '5.00' },
    multa: { modalidade: 1, valorPerc: '3.00' },
  });
  assert.equal(late, { original: 100000, abatimento: 5000, desconto: 0, juros: 0, multa: 300, final: 95300 });
});

test('desconto 1 and 2: the first fixed date not yet passed', () => {
  const desconto = {
    modalidade: 1 as const,
    descontoDataFixa: [
      { data: '2026-03-05', valorPerc: '20.00' },
      { data: '2026-03-01', valorPerc: '50.00' },
    ],
  };
  assert.is(amounts({ desconto, paymentDate: '2026-02-25' }).desconto, 5000); // 03-01 item
  assert.is(amounts({ desconto, paymentDate: '2026-03-01' }).desconto, 5000); // inclusive
  assert.is(amounts({ desconto, paymentDate: '2026-03-03' }).desconto, 2000); // 03-05 item
  assert.is(amounts({ desconto, paymentDate: '2026-03-08' }).desconto, 0); // all passed
  assert.is(amounts({ desconto, paymentDate: '2026-03-11' }).desconto, 0); // late
  // percent: 2.5% of 100000 = 2500
  const pct = { modalidade: 2 as const, descontoDataFixa: [{ data: '2026-03-05', valorPerc: '2.50' }] };
  assert.equal(amounts({ desconto: pct, paymentDate: '2026-03-05' }), {
    original: 100000,
    abatimento: 0,
    desconto: 2500,
    juros: 0,
    multa: 0,
    final: 97500,
  });
});

test('desconto 3..6: per day of advance', () => {
  // paid Thu 2026-03-05: 5 calendar days of advance; business days 06, 09, 10 = 3
  const early = { paymentDate: '2026-03-05' };
  assert.is(amounts({ ...early, desconto: { modalidade: 3, valorPerc: '1.00' } }).desconto, 500); // 100 * 5
  assert.is(amounts({ ...early, desconto: { modalidade: 4, valorPerc: '1.00' } }).desconto, 300); // 100 * 3
  assert.is(amounts({ ...early, desconto: { modalidade: 5, valorPerc: '0.10' } }).desconto, 500); // 100000*0.1%*5
  assert.is(amounts({ ...early, desconto: { modalidade: 6, valorPerc: '0.10' } }).desconto, 300); // 100000*0.1%*3
  // 0.0333% * 3 business days = 99.9 -> 100
  assert.is(amounts({ ...early, desconto: { modalidade: 6, valorPerc: '0.0333' } }).desconto, 100);
  assert.is(amounts({ desconto: { modalidade: 3, valorPerc: '1.00' } }).desconto, 0); // on the due date
});

test('rounding half up to the cent', () => {
  // 1% of 12345 = 123.45 -> 123; 1% of 12350 = 123.5 -> 124
  const late = { paymentDate: '2026-03-11', multa: { modalidade: 2 as const, valorPerc: '1.00' } };
  assert.is(amounts({ ...late, original: cents(12345) }).multa, 123);
  assert.is(amounts({ ...late, original: cents(12350) }).multa, 124);
  // 0.005% of 100000 = 5 exactly
  assert.is(amounts({ ...late, multa: { modalidade: 2, valorPerc: '0.005' } }).multa, 5);
});

test('final never below zero', () => {
  // abatimento 800 of 1000; desconto 500 capped at the remaining 200
  const v = amounts({
    original: cents(1000),
    paymentDate: '2026-03-01',
    abatimento: { modalidade: 1, valorPerc: '8.00' },
    desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-10', valorPerc: '5.00' }] },
  });
  assert.equal(v, { original: 1000, abatimento: 800, desconto: 200, juros: 0, multa: 0, final: 0 });
});

test('invalid rules are reported', () => {
  assert.is(
    reason({ multa: { modalidade: 2, valorPerc: '2,00' } }),
    'multa.valorPerc must be a percentage like "2.00"',
  );
  assert.is(
    reason({ multa: { modalidade: 1, valorPerc: '1.005' } }),
    'multa.valorPerc must be a value in reais like "2.50"',
  );
  assert.is(reason({ juros: { modalidade: 9 as never, valorPerc: '1.00' } }), 'juros.modalidade must be 1 to 8');
  assert.is(reason({ desconto: { modalidade: 1 } }), 'desconto.descontoDataFixa is required for modalidade 1 and 2');
  assert.is(reason({ desconto: { modalidade: 3 } }), 'desconto.valorPerc is required for modalidade 3 to 6');
  // a bad desconto is reported even when paid late
  assert.is(
    reason({ paymentDate: '2026-03-12', desconto: { modalidade: 5, valorPerc: 'x' } }),
    'desconto.valorPerc must be a percentage like "2.00"',
  );
  assert.is(reason({ dueDate: '2026-02-30' }), 'dueDate must be a calendar date YYYY-MM-DD');
});

test('platformDiscountToCobv maps modalities, dates and units', () => {
  const fixed = platformDiscountToCobv(
    {
      modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE',
      discountFixedDate: [
        { daysActive: 5, value: 1000 },
        { daysActive: 10, value: 2005 },
      ],
    },
    '2026-03-10',
  );
  assert.equal(fixed, {
    ok: true,
    value: {
      modalidade: 1,
      // by date (the standard's order of validity)
      descontoDataFixa: [
        { data: '2026-02-28', valorPerc: '20.05' },
        { data: '2026-03-05', valorPerc: '10.00' },
      ],
    },
  });
  const pct = platformDiscountToCobv(
    { modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 0, value: 250 }] },
    '2026-03-10',
  );
  assert.equal(pct, {
    ok: true,
    value: { modalidade: 2, descontoDataFixa: [{ data: '2026-03-10', valorPerc: '2.50' }] },
  });
  assert.equal(platformDiscountToCobv({ modality: 'VALUE_PER_BUSINESS_DAY_ADVANCE', value: 100 }, '2026-03-10'), {
    ok: true,
    value: { modalidade: 4, valorPerc: '1.00' },
  });
  assert.equal(
    platformDiscountToCobv(
      { modality: 'PERCENTAGE_PER_RUNNING_DAY_ADVANCE', discountFixedDate: [{ daysActive: 0, value: 5 }] },
      '2026-03-10',
    ),
    { ok: true, value: { modalidade: 5, valorPerc: '0.05' } },
  );
  assert.is(platformDiscountToCobv({ modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE' }, '2026-03-10').ok, false);
  assert.is(platformDiscountToCobv({ modality: 'NOPE' as never, value: 1 }, '2026-03-10').ok, false);
  assert.is(platformDiscountToCobv({ modality: 'toString' as never, value: 1 }, '2026-03-10').ok, false);
});

// The platform's discount as its charges price it: translated into the body's desconto once,
// then priced by the standard's rules alone.
function platformPrice(
  original: number,
  dueDate: string,
  paymentDate: string,
  d: Parameters<typeof platformDiscountToCobv>[0],
) {
  const cobv = platformDiscountToCobv(d, dueDate);
  if (!cobv.ok) throw new Error(cobv.reason);
  return amounts({ original: cents(original), dueDate, paymentDate, desconto: cobv.value }).desconto;
}

test('a platform discount in the body: the largest live item wins, as the platform promises', () => {
  // items live until 03-08 (R$ 30.00) and until 03-05 (R$ 10.00): the later one is larger
  const d = {
    modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE' as const,
    discountFixedDate: [
      { daysActive: 2, value: 3000 },
      { daysActive: 5, value: 1000 },
    ],
  };
  assert.is(platformPrice(100000, '2026-03-10', '2026-03-04', d), 3000); // both live: largest
  assert.is(platformPrice(100000, '2026-03-10', '2026-03-06', d), 3000);
  assert.is(platformPrice(100000, '2026-03-10', '2026-03-09', d), 0); // both expired
  // each date carries the largest value from it on
  const cobv = platformDiscountToCobv(d, '2026-03-10');
  assert.equal(cobv.ok && 'descontoDataFixa' in cobv.value && cobv.value.descontoDataFixa, [
    { data: '2026-03-05', valorPerc: '30.00' },
    { data: '2026-03-08', valorPerc: '30.00' },
  ]);
  // basis points: 250 bp of 100000 = 2500
  const p = {
    modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE' as const,
    discountFixedDate: [
      { daysActive: 1, value: 250 },
      { daysActive: 3, value: 100 },
    ],
  };
  assert.is(platformPrice(100000, '2026-03-10', '2026-03-01', p), 2500);
  // per business day of advance: 3 business days * 100 cents
  assert.is(
    platformPrice(100000, '2026-03-10', '2026-03-05', { modality: 'VALUE_PER_BUSINESS_DAY_ADVANCE', value: 100 }),
    300,
  );
  // never more than the original; nothing when late
  assert.is(platformPrice(500, '2026-03-10', '2026-03-01', d), 500);
  assert.is(platformPrice(100000, '2026-03-10', '2026-03-11', d), 0);
  assert.is(platformDiscountToCobv({ modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE' }, '2026-03-10').ok, false);
});

test("platformSettingsOf: a cobv's valor in the platform's terms", () => {
  const mapped = platformDiscountToCobv(
    { modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 3, value: 150 }] },
    '2026-03-10',
  );
  assert.ok(mapped.ok);
  assert.equal(
    platformSettingsOf(
      {
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 2, valorPerc: '0.33' },
        desconto: mapped.value,
      },
      '2026-03-10',
    ),
    {
      fines: { value: 200 },
      interests: { value: 33 },
      discount: { modality: 'PERCENTAGE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 3, value: 150 }] },
    },
  );
  // a fixed-amount fine has no platform form
  assert.equal(platformSettingsOf({ multa: { modalidade: 1, valorPerc: '5.00' } }, '2026-03-10'), {});
});

test.run();
