import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  classifyTaxId,
  cnpjWithCheckDigits,
  cpfWithCheckDigits,
  isValidCnpj,
  isValidCpf,
  isValidEmail,
  normalizePhone,
  normalizeTaxId,
  onlyDigitsAndLetters,
  randomCnpj,
} from '../../src/lib/taxid';
import { madeUpParty } from '../../src/rail/outside-world';

test('onlyDigitsAndLetters strips masks', () => {
  assert.is(onlyDigitsAndLetters('123.456.789-09'), '12345678909');
  assert.is(onlyDigitsAndLetters('11.222.333/0001-81'), '11222333000181');
  assert.is(onlyDigitsAndLetters(' 12.ABC.345/01DE-35 '), '12ABC34501DE35');
  assert.is(onlyDigitsAndLetters('abc'), 'abc');
});

test('isValidCpf accepts known CPFs', () => {
  assert.is(isValidCpf('12345678909'), true);
  assert.is(isValidCpf('52998224725'), true);
});

test('isValidCpf rejects wrong check digits, repeated digits and other shapes', () => {
  assert.is(isValidCpf('12345678900'), false); // first digit right, second wrong
  assert.is(isValidCpf('12345678919'), false); // first digit wrong
  assert.is(isValidCpf('52998224726'), false);
  assert.is(isValidCpf('11111111111'), false); // check digits would match
  assert.is(isValidCpf('00000000000'), false);
  assert.is(isValidCpf('123.456.789-09'), false); // masks are not stripped here
  assert.is(isValidCpf('1234567890'), false);
  assert.is(isValidCpf('1234567890A'), false);
});

test('isValidCnpj accepts numeric and alphanumeric CNPJs', () => {
  assert.is(isValidCnpj('11222333000181'), true);
  assert.is(isValidCnpj('12ABC34501DE35'), true); // the Receita Federal example
});

test('isValidCnpj rejects wrong check digits, repeated characters and other shapes', () => {
  assert.is(isValidCnpj('11222333000182'), false);
  assert.is(isValidCnpj('11222333000191'), false);
  assert.is(isValidCnpj('12ABC34501DE36'), false);
  assert.is(isValidCnpj('12ABC34501DF35'), false);
  assert.is(isValidCnpj('12abc34501de35'), false); // lowercase is not canonical
  assert.is(isValidCnpj('12ABC34501DEA5'), false); // check digits must be digits
  assert.is(isValidCnpj('00000000000000'), false);
  assert.is(isValidCnpj('AAAAAAAAAAAAAA'), false);
  assert.is(isValidCnpj('1122233300018'), false);
});

test('cnpjWithCheckDigits: modulo 11 of each character (ASCII code minus 48), numeric check digits', () => {
  assert.is(cnpjWithCheckDigits('12ABC34501DE'), '12ABC34501DE35'); // the Receita Federal example
  assert.is(cnpjWithCheckDigits('112223330001'), '11222333000181');
  assert.throws(() => cnpjWithCheckDigits('12abc34501de'), /CNPJ base/);
  assert.throws(() => cnpjWithCheckDigits('12ABC34501D'), /CNPJ base/);
  assert.is(cpfWithCheckDigits('529982247'), '52998224725');
  assert.throws(() => cpfWithCheckDigits('52998224A'), /CPF base/);
});

test('randomCnpj: valid head-office CNPJs, numeric and alphanumeric', () => {
  const drawn = Array.from({ length: 300 }, () => randomCnpj());
  for (const cnpj of drawn) {
    assert.ok(isValidCnpj(cnpj), cnpj);
    assert.is(cnpj.slice(8, 12), '0001');
  }
  // One in three is alphanumeric: 300 draws without either form would happen once in 10^52.
  assert.ok(
    drawn.some((c) => /[A-Z]/.test(c)),
    'some alphanumeric',
  );
  assert.ok(
    drawn.some((c) => /^\d{14}$/.test(c)),
    'some numeric',
  );
});

test("the outside world's made-up companies have valid CNPJs, some alphanumeric, always the same", () => {
  const cnpjs = Array.from({ length: 200 }, (_, i) => madeUpParty(`seed:${i}`, 'company').taxId);
  for (const cnpj of cnpjs) assert.ok(isValidCnpj(cnpj), cnpj);
  assert.ok(cnpjs.some((c) => /[A-Z]/.test(c)));
  assert.ok(cnpjs.some((c) => /^\d{14}$/.test(c)));
  assert.equal(
    Array.from({ length: 200 }, (_, i) => madeUpParty(`seed:${i}`, 'company').taxId),
    cnpjs,
  );
});

test('classifyTaxId strips the mask and checks the digits', () => {
  assert.is(classifyTaxId('123.456.789-09'), 'CPF');
  assert.is(classifyTaxId('52998224725'), 'CPF');
  assert.is(classifyTaxId('11.222.333/0001-81'), 'CNPJ');
  assert.is(classifyTaxId('12.abc.345/01de-35'), 'CNPJ');
  assert.is(classifyTaxId('123.456.789-00'), null);
  assert.is(classifyTaxId('11.222.333/0001-82'), null);
  assert.is(classifyTaxId('123'), null);
  assert.is(classifyTaxId(''), null);
});

test('normalizeTaxId returns the bare id and its type', () => {
  assert.equal(normalizeTaxId('123.456.789-09'), { ok: true, value: { taxId: '12345678909', type: 'BR_CPF' } });
  assert.equal(normalizeTaxId('11.222.333/0001-81'), { ok: true, value: { taxId: '11222333000181', type: 'BR_CNPJ' } });
  assert.equal(normalizeTaxId('12.abc.345/01de-35'), { ok: true, value: { taxId: '12ABC34501DE35', type: 'BR_CNPJ' } });
});

test('normalizeTaxId names the check that failed', () => {
  assert.equal(normalizeTaxId('123.456.789-00'), { ok: false, reason: 'CPF check digits do not match' });
  assert.equal(normalizeTaxId('111.111.111-11'), { ok: false, reason: 'CPF must not be one digit repeated' });
  assert.equal(normalizeTaxId('1234567890A'), { ok: false, reason: 'CPF must have only digits' });
  assert.equal(normalizeTaxId('11.222.333/0001-82'), { ok: false, reason: 'CNPJ check digits do not match' });
  assert.equal(normalizeTaxId('00.000.000/0000-00'), { ok: false, reason: 'CNPJ must not be one character repeated' });
  assert.equal(normalizeTaxId('12ABC34501DEA5'), {
    ok: false,
    reason: 'CNPJ must have 12 letters or digits followed by 2 check digits',
  });
  assert.equal(normalizeTaxId('1234567890'), {
    ok: false,
    reason: 'tax id must have 11 (CPF) or 14 (CNPJ) characters',
  });
  assert.equal(normalizeTaxId(''), { ok: false, reason: 'tax id must have 11 (CPF) or 14 (CNPJ) characters' });
});

test('isValidEmail is pragmatic', () => {
  assert.is(isValidEmail('fulano@example.com'), true);
  assert.is(isValidEmail('Fulano.Tal+pix@sub.example.com.br'), true);
  assert.is(isValidEmail('fulano@example'), false);
  assert.is(isValidEmail('fulano@@example.com'), false);
  assert.is(isValidEmail('a@b@example.com'), false);
  assert.is(isValidEmail('@example.com'), false);
  assert.is(isValidEmail('fulano@.com'), false);
  assert.is(isValidEmail('fulano@example.'), false);
  assert.is(isValidEmail('fulano de tal@example.com'), false);
  assert.is(isValidEmail(`${'a'.repeat(64)}@${'b'.repeat(185)}.com`), true); // 254 characters
  assert.is(isValidEmail(`${'a'.repeat(64)}@${'b'.repeat(186)}.com`), false); // 255 characters
});

test('normalizePhone returns +55DDNNNNNNNNN', () => {
  assert.equal(normalizePhone('+5511987654321'), { ok: true, value: '+5511987654321' });
  assert.equal(normalizePhone('5511987654321'), { ok: true, value: '+5511987654321' });
  assert.equal(normalizePhone('+55 (11) 98765-4321'), { ok: true, value: '+5511987654321' });
  assert.equal(normalizePhone('55 61 3322-1100'), { ok: true, value: '+556133221100' });
  assert.equal(normalizePhone('+55.99.9.1234.5678'), { ok: true, value: '+5599912345678' });
});

test('normalizePhone rejects what is not a Brazilian number', () => {
  const shape = 'phone must be +55 followed by a 2-digit area code and an 8 or 9-digit number';
  assert.equal(normalizePhone('11987654321'), { ok: false, reason: shape }); // no country code
  assert.equal(normalizePhone('+5411987654321'), { ok: false, reason: shape });
  assert.equal(normalizePhone('+55119876543210'), { ok: false, reason: shape });
  assert.equal(normalizePhone('+55119876543'), { ok: false, reason: shape });
  assert.equal(normalizePhone('+55 11 98765-432a'), { ok: false, reason: shape });
  assert.equal(normalizePhone('++5511987654321'), { ok: false, reason: shape });
  assert.equal(normalizePhone('+5510987654321'), {
    ok: false,
    reason: 'phone area code (DDD) must be between 11 and 99',
  });
  assert.equal(normalizePhone('+5511887654321'), { ok: false, reason: 'a 9-digit phone number must start with 9' });
});

test.run();
