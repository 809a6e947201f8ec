// One ajv set up the way the OpenAPI 3.0 schemas of our specs need (formats, nullable).
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

export function openApiAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(f, true);
  return ajv;
}
