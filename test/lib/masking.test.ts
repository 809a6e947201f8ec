// How receipts show personal data (src/lib/masking.ts), the receipt's format negotiation and
// its text wrapping: pure functions, checked against hand-written expectations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCnpj, maskCpf, maskPixKey, shownTaxId } from '../../src/lib/masking';
import { formatBrasilia, formatBrl, wrap } from '../../src/receipts/receipt-layout';
import { receiptFormatOf } from '../../src/receipts/receipts.handler';

test('a CPF shows its six middle digits; a CNPJ in full, alphanumeric ones too', () => {
  assert.is(maskCpf('12345678909'), '***.456.789-**');
  assert.is(maskCpf('1234'), '***');
  assert.is(formatCnpj('11222333000181'), '11.222.333/0001-81');
  assert.is(formatCnpj('12ABC34501DE35'), '12.ABC.345/01DE-35');
  assert.equal(shownTaxId('52998224725'), { label: 'CPF', value: '***.982.247-**' });
  assert.equal(shownTaxId('11222333000181'), { label: 'CNPJ', value: '11.222.333/0001-81' });
});

test('keys as the DICT shows them to a payer', () => {
  assert.is(maskPixKey('52998224725', 'CPF'), '***.982.247-**');
  assert.is(maskPixKey('11222333000181', 'CNPJ'), '11.222.333/0001-81');
  assert.is(maskPixKey('mariana.costa@example.com.br', 'EMAIL'), 'm***@example.com.br');
  assert.is(maskPixKey('+5511965432187', 'PHONE'), '+55 (11) *****-2187');
  assert.is(maskPixKey('3189c328-dc29-43a3-8c87-be4b8093cdde', 'EVP'), '3189c328-dc29-43a3-8c87-be4b8093cdde');
});

test('amounts in reais and instants in Brasília time', () => {
  assert.is(formatBrl(123456), 'R$ 1.234,56');
  assert.is(formatBrl(5), 'R$ 0,05');
  assert.is(formatBrl(123456789012), 'R$ 1.234.567.890,12');
  assert.is(formatBrasilia(new Date('2026-01-01T02:30:05Z')), '31/12/2025 às 23:30:05');
});

test('PNG only when asked by name or preferred by Accept', () => {
  assert.is(receiptFormatOf(undefined, undefined), 'pdf');
  assert.is(receiptFormatOf(undefined, '*/*'), 'pdf');
  assert.is(receiptFormatOf(undefined, 'image/png'), 'png');
  assert.is(receiptFormatOf(undefined, 'application/pdf;q=0.5, image/png'), 'png');
  assert.is(receiptFormatOf(undefined, 'application/pdf, image/png;q=0.9'), 'pdf');
  assert.is(receiptFormatOf('pdf', 'image/png'), 'pdf');
  assert.is(receiptFormatOf('png', 'application/pdf'), 'png');
});

test('wrapping keeps words whole and cuts only what cannot fit a line', () => {
  const width = (s: string) => s.length;
  assert.equal(wrap('Bolo de fubá e pão de queijo', 12, width), ['Bolo de fubá', 'e pão de', 'queijo']);
  assert.equal(wrap('E18236120202603151441k7Ht2QwN9xZ', 10, width), ['E182361202', '0260315144', '1k7Ht2QwN9', 'xZ']);
  assert.equal(wrap('', 10, width), ['']);
});

test.run();
