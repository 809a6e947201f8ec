import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyPixKey, validatePixKey } from '../../src/lib/pix-key';

const EVP = '123e4567-e12b-12d1-a456-426655440000';

test('classifyPixKey recognizes each key type', () => {
  assert.is(classifyPixKey('12345678909'), 'CPF');
  assert.is(classifyPixKey('11222333000181'), 'CNPJ');
  assert.is(classifyPixKey('12ABC34501DE35'), 'CNPJ');
  assert.is(classifyPixKey('fulano@example.com'), 'EMAIL');
  assert.is(classifyPixKey('Fulano@Example.com'), 'EMAIL');
  assert.is(classifyPixKey('+5511987654321'), 'PHONE');
  assert.is(classifyPixKey('+556133221100'), 'PHONE');
  assert.is(classifyPixKey(EVP), 'EVP');
});

test('classifyPixKey returns null for what is not a key', () => {
  assert.is(classifyPixKey('12345678900'), null); // bad CPF check digits
  assert.is(classifyPixKey('123.456.789-09'), null); // keys carry no mask
  assert.is(classifyPixKey('11222333000182'), null);
  assert.is(classifyPixKey('5511987654321'), null); // phone keys need the +
  assert.is(classifyPixKey('+55 11 98765-4321'), null);
  assert.is(classifyPixKey('+5411987654321'), null);
  assert.is(classifyPixKey('fulano@example'), null);
  assert.is(classifyPixKey('123e4567e12b12d1a456426655440000'), null);
  assert.is(classifyPixKey(''), null);
});

test('validatePixKey returns the DICT form and type', () => {
  assert.equal(validatePixKey('12345678909'), { ok: true, value: { key: '12345678909', type: 'CPF' } });
  assert.equal(validatePixKey('12ABC34501DE35'), { ok: true, value: { key: '12ABC34501DE35', type: 'CNPJ' } });
  assert.equal(validatePixKey('Fulano.Tal@Example.COM'), {
    ok: true,
    value: { key: 'fulano.tal@example.com', type: 'EMAIL' },
  });
  assert.equal(validatePixKey('+5511987654321'), { ok: true, value: { key: '+5511987654321', type: 'PHONE' } });
  assert.equal(validatePixKey(EVP.toUpperCase()), { ok: true, value: { key: EVP, type: 'EVP' } });
});

test('validatePixKey checks the declared type, RANDOM meaning EVP', () => {
  assert.equal(validatePixKey(EVP, 'RANDOM'), { ok: true, value: { key: EVP, type: 'EVP' } });
  assert.equal(validatePixKey(EVP, 'EVP'), { ok: true, value: { key: EVP, type: 'EVP' } });
  assert.equal(validatePixKey('52998224725', 'CPF'), { ok: true, value: { key: '52998224725', type: 'CPF' } });
  assert.equal(validatePixKey('fulano@example.com', 'EMAIL'), {
    ok: true,
    value: { key: 'fulano@example.com', type: 'EMAIL' },
  });
  assert.equal(validatePixKey('12345678909', 'EMAIL'), { ok: false, reason: 'pixKey is not a valid EMAIL key' });
  assert.equal(validatePixKey('12345678909', 'PHONE'), { ok: false, reason: 'pixKey is not a valid PHONE key' });
  assert.equal(validatePixKey('fulano@example.com', 'RANDOM'), {
    ok: false,
    reason: 'pixKey is not a valid RANDOM key',
  });
  assert.equal(validatePixKey('12345678900', 'CPF'), { ok: false, reason: 'pixKey is not a valid CPF key' });
  assert.equal(validatePixKey('11222333000181', 'CPF'), { ok: false, reason: 'pixKey is not a valid CPF key' });
  assert.equal(validatePixKey('12abc34501de35', 'CNPJ'), { ok: false, reason: 'pixKey is not a valid CNPJ key' });
});

test('validatePixKey enforces the e-mail key limits', () => {
  const longest = 'a'.repeat(64) + '@examples.com'; // 77 characters, local part at its 64 limit
  assert.equal(validatePixKey(longest), { ok: true, value: { key: longest, type: 'EMAIL' } });
  assert.equal(validatePixKey(longest + 'x', 'EMAIL'), { ok: false, reason: 'pixKey is not a valid EMAIL key' });
  assert.equal(validatePixKey('fulano de tal@example.com', 'EMAIL'), {
    ok: false,
    reason: 'pixKey is not a valid EMAIL key',
  });
  assert.equal(validatePixKey('joão@example.com', 'EMAIL'), { ok: false, reason: 'pixKey is not a valid EMAIL key' });
  assert.equal(validatePixKey('fulano@-example.com', 'EMAIL'), {
    ok: false,
    reason: 'pixKey is not a valid EMAIL key',
  });
});

test('validatePixKey explains an unrecognized key', () => {
  assert.equal(validatePixKey('not a key'), {
    ok: false,
    reason: 'pixKey is not a valid CPF, CNPJ, EMAIL, PHONE or EVP key',
  });
  assert.equal(validatePixKey(''), { ok: false, reason: 'pixKey must be a non-empty string' });
});

test.run();
