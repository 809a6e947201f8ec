// What a tolerant PSP accepts of a Pix API request that its schema, read strictly, refuses,
// stored in the normal form: an integer written as a string of digits where the schema asks
// an integer (the official examples send cobv `multa.modalidade: "2"`), and a CEP written
// with its hyphen ("89256-140", normalised to 8 digits). Anything else is left for the
// validator to refuse as usual. Walks the body along the operation's (dereferenced) schema.
import { isJsonObject } from '../lib/json';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

const INTEGER_TEXT = /^-?\d{1,15}$/;
const CEP_WITH_HYPHEN = /^\d{5}-\d{3}$/;
const MAX_DEPTH = 16;

export function tolerate(schema: Schema | undefined, value: unknown, depth = 0): unknown {
  if (!schema || depth > MAX_DEPTH) return value;
  if (typeof value === 'string' && wantsInteger(schema) && INTEGER_TEXT.test(value)) return Number(value);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    value = tolerate(part, value, depth + 1);
  }
  if (Array.isArray(value) && schema.items) return value.map((item) => tolerate(schema.items, item, depth + 1));
  if (isJsonObject(value) && schema.properties) {
    const object = value;
    for (const [key, property] of Object.entries(schema.properties)) {
      if (!(key in object)) continue;
      const given = object[key];
      object[key] =
        key === 'cep' && typeof given === 'string' && CEP_WITH_HYPHEN.test(given)
          ? given.replace('-', '')
          : tolerate(property, given, depth + 1);
    }
  }
  return value;
}

function wantsInteger(schema: Schema): boolean {
  return schema.type === 'integer';
}
