// The 400 of a oneOf body names the problems of the branch the client meant, not of all.
import Ajv from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pruneOneOfBranches } from '../../src/http/oneof-errors';

const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile({
  oneOf: [
    {
      type: 'object',
      required: ['type', 'key', 'keyType'],
      properties: { type: { enum: ['PIX_KEY'] }, key: { type: 'string' }, keyType: { enum: ['CPF', 'EMAIL'] } },
    },
    {
      type: 'object',
      required: ['type', 'qrCode'],
      properties: { type: { enum: ['QR_CODE'] }, qrCode: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['type', 'barcode'],
      properties: { type: { enum: ['BOLETO'] }, barcode: { type: 'string', pattern: '^[0-9]{44}$' } },
    },
  ],
});

function errorsOf(body: unknown): string[] {
  assert.is(validate(body), false);
  return pruneOneOfBranches(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword} ${e.message}`);
}

test('a wrong field of the meant branch is the only error, even when it is an enum', () => {
  assert.equal(errorsOf({ type: 'PIX_KEY', key: 'a@b.c', keyType: 'FOO' }), [
    '/keyType enum must be equal to one of the allowed values',
  ]);
  assert.equal(errorsOf({ type: 'BOLETO', barcode: '1' }), ['/barcode pattern must match pattern "^[0-9]{44}$"']);
  assert.equal(errorsOf({ type: 'QR_CODE' }), ["/ required must have required property 'qrCode'"]);
});

test('an unknown or missing discriminator is said once', () => {
  assert.equal(errorsOf({ type: 'TED' }), ['/type enum must be one of PIX_KEY, QR_CODE, BOLETO']);
  assert.equal(errorsOf({}), ["/ required must have required property 'type'"]);
});

test('without a discriminator, the branch that accepts every field sent is the one meant', () => {
  const optional = ajv.compile({
    oneOf: [
      {
        type: 'object',
        required: ['key', 'keyType'],
        additionalProperties: false,
        properties: {
          type: { enum: ['PIX_KEY'] },
          key: { type: 'string' },
          keyType: { enum: ['CPF', 'EMAIL'] },
          value: { type: 'integer' },
        },
      },
      {
        type: 'object',
        required: ['qrCode'],
        additionalProperties: false,
        properties: {
          type: { enum: ['QR_CODE'] },
          qrCode: { type: 'string', minLength: 20 },
          value: { type: 'integer' },
        },
      },
      {
        type: 'object',
        required: ['type', 'barcode'],
        additionalProperties: false,
        properties: { type: { enum: ['BOLETO'] }, barcode: { type: 'string' } },
      },
    ],
  });
  const errorsOfOptional = (body: unknown) => {
    assert.is(optional(body), false);
    return pruneOneOfBranches(optional.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword} ${e.message}`);
  };
  assert.equal(errorsOfOptional({ key: 'a@b.c' }), ["/ required must have required property 'keyType'"]);
  assert.equal(errorsOfOptional({ qrCode: 'short' }), ['/qrCode minLength must NOT have fewer than 20 characters']);
  // value fits two branches: what each of them misses, once, and nothing about the third.
  assert.equal(errorsOfOptional({ value: 1 }), [
    "/ required must have required property 'key'",
    "/ required must have required property 'keyType'",
    "/ required must have required property 'qrCode'",
  ]);
});

test('a oneOf nested in a dropped branch is left alone', () => {
  const nested = ajv.compile({
    oneOf: [
      {
        type: 'object',
        required: ['m', 'd'],
        properties: {
          m: { const: 1 },
          d: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }] },
        },
      },
      {
        type: 'object',
        required: ['m', 'v'],
        properties: { m: { const: 3 }, v: { type: 'string', pattern: '^[0-9]+$' } },
      },
    ],
  });
  assert.is(nested({ m: 3, v: 'x', d: true }), false);
  const kept = pruneOneOfBranches(nested.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
  assert.equal(kept, ['/v pattern']);
});

test.run();
