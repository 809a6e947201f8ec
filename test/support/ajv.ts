// One ajv set up the way the OpenAPI 3.0 schemas of our specs need (formats, nullable).
import Ajv from 'ajv';
import { addOpenApiFormats } from '../../src/http/openapi-formats';

export function openApiAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  return addOpenApiFormats(ajv);
}
