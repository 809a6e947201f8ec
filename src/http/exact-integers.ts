// Integer fields take integer text only. The body is parsed (JSON.parse) before it is
// validated, so `"value": 100.000000000000001` reached the validator as 100 and
// `99999999999.99999999` as 100000000000: money rounded without a word. Where the operation's
// schema says integer, a literal written with a fraction or an exponent (100.0, 1e2), or
// beyond 2^53 - 1, is refused as a validation error naming the field. Fields the schema
// types as number keep whatever JSON.parse reads.
import type { ErrorObject } from 'ajv';
import { inexactNumberLiterals, type JsonPath } from '../lib/json-numbers';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

const MAX_DEPTH = 32;
export const NOT_INTEGER_TEXT = 'must be an integer written with digits only (no fraction, no exponent)';
export const UNSAFE_INTEGER = 'must be an integer from -9007199254740991 to 9007199254740991';
const EXACT_INTEGER_SCHEMA_PATH = '#/exactInteger';

// Errors in ajv's form (so they join the validator's) for the body's inexact literals where
// the (dereferenced) body schema asks an integer.
export function inexactIntegerErrors(rawBody: string | undefined, schema: Schema | undefined): ErrorObject[] {
  if (!rawBody || !schema) return [];
  return inexactNumberLiterals(rawBody)
    .filter((literal) => schemasAt(schema, literal.path).some((s) => s.type === 'integer'))
    .map((literal) => {
      const spelledAsInteger = /^-?[0-9]+$/.test(literal.text);
      return {
        instancePath: `/requestBody${literal.path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`,
        schemaPath: EXACT_INTEGER_SCHEMA_PATH,
        keyword: 'type',
        params: { type: 'integer', unsafe: spelledAsInteger },
        message: spelledAsInteger ? UNSAFE_INTEGER : NOT_INTEGER_TEXT,
        data: literal.text,
      };
    });
}

// Where a value was refused for a fraction or an exponent, what the validator said of its
// rounded reading (must be integer, must be <= ...) would mislead: only that refusal is kept
// there. An integer beyond 2^53 - 1 that the validator already refused (a maximum) keeps the
// validator's words instead.
export function withoutRounded(errors: ErrorObject[]): ErrorObject[] {
  const ours = errors.filter((e) => e.schemaPath === EXACT_INTEGER_SCHEMA_PATH);
  if (ours.length === 0) return errors;
  const others = errors.filter((e) => e.schemaPath !== EXACT_INTEGER_SCHEMA_PATH);
  const refusedElse = new Set(others.map((e) => e.instancePath));
  const kept = ours.filter((e) => !(e.params as { unsafe: boolean }).unsafe || !refusedElse.has(e.instancePath));
  const replaced = new Set(kept.map((e) => e.instancePath));
  return [...others.filter((e) => !replaced.has(e.instancePath)), ...kept];
}

// Every schema that may apply at `path` (each branch of allOf, oneOf and anyOf).
function schemasAt(schema: Schema, path: JsonPath): Schema[] {
  let current = expand(schema, 0);
  for (const segment of path) {
    current = current.flatMap((s) => {
      const next =
        typeof segment === 'number'
          ? s.items
          : (s.properties?.[segment] ??
            (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
      return next ? expand(next, 0) : [];
    });
    if (current.length === 0) break;
  }
  return current;
}

function expand(schema: Schema, depth: number): Schema[] {
  if (depth > MAX_DEPTH) return [schema];
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return [schema, ...parts.flatMap((p) => expand(p, depth + 1))];
}
