// The OpenAPI formats ajv-formats does not know. int32 and int64 are enforced (a value out of
// range is a 400, not a database or date overflow further in: int64 stops at what a JS number
// holds exactly); the others only name the encoding.
import type Ajv from 'ajv';
import addFormats from 'ajv-formats';

const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

// What a value failing a numeric format is told: its range rather than the format's name.
export const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  int32: `must be an integer from ${INT32.min} to ${INT32.max}`,
  int64: `must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`,
};

export function addOpenApiFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= INT32.min && n <= INT32.max,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  for (const f of ['float', 'double'])
    ajv.addFormat(f, { type: 'number', validate: (n: number) => Number.isFinite(n) });
  for (const f of ['binary', 'byte', 'password']) ajv.addFormat(f, true);
  return ajv;
}
