// Version 2.9.0 of the Pix standard accepts alphanumeric CNPJs (12 digits or capital letters and
// 2 numeric check digits) and alphanumeric ISPBs (8 digits or capital letters). Every pattern of
// a tax id or CNPJ field of both specs that accepts a numeric CNPJ accepts its alphanumeric
// form, masked or not; every
// pattern that accepts a numeric ISPB where an ISPB is read (and the ISPB part of an
// EndToEndId) accepts an alphanumeric one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Json, loadRawSpec, SPEC_NAMES } from '../support/spec';

interface Pattern {
  where: string;
  name: string;
  regex: RegExp;
}

// Every `pattern` of a spec, with the name of the property or parameter it constrains.
function patternsOf(node: Json, where = '', name = ''): Pattern[] {
  if (!node || typeof node !== 'object') return [];
  const found: Pattern[] = typeof node.pattern === 'string' ? [{ where, name, regex: new RegExp(node.pattern) }] : [];
  const own = typeof node.name === 'string' && node.in ? node.name : name;
  for (const [key, child] of Object.entries<Json>(node)) {
    const childName = where.endsWith('/properties') ? key : own;
    found.push(...patternsOf(child, `${where}/${key}`, childName));
  }
  return found;
}

const PAIRS = [
  { numeric: '11222333000181', alphanumeric: '12ABC34501DE35' },
  { numeric: '11.222.333/0001-81', alphanumeric: '12.ABC.345/01DE-35' },
];

for (const spec of SPEC_NAMES) {
  const patterns = patternsOf(loadRawSpec(spec));

  test(`${spec}: every pattern that takes a numeric CNPJ takes the alphanumeric one`, () => {
    let cnpjFields = 0;
    for (const { where, name, regex } of patterns) {
      if (!/taxid|cnpj/i.test(name)) continue;
      for (const { numeric, alphanumeric } of PAIRS) {
        if (!regex.test(numeric)) continue;
        cnpjFields++;
        assert.ok(regex.test(alphanumeric), `${where} (${regex.source}) refuses ${alphanumeric}`);
      }
    }
    assert.ok(cnpjFields > 3, 'the spec has CNPJ fields');
  });

  test(`${spec}: every ISPB field and EndToEndId pattern takes an alphanumeric ISPB`, () => {
    let ispbFields = 0;
    for (const { where, name, regex } of patterns) {
      if (/ispb|prestador/i.test(name) || /psp\/properties\/id$/.test(where)) {
        ispbFields++;
        assert.ok(regex.test('60701190'), `${where} is an ISPB field`);
        assert.ok(regex.test('1234ABCD'), `${where} (${regex.source}) refuses the ISPB 1234ABCD`);
      }
      if (regex.test('E60701190202611251200abcdefghijk'))
        assert.ok(regex.test('E1234ABCD202611251200abcdefghijk'), `${where} (${regex.source}) refuses an ISPB`);
    }
    assert.ok(ispbFields > 0, 'the spec has ISPB fields');
  });
}

test.run();
