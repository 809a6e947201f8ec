// A routed request checked against its operation's schemas by the validators openapi-backend
// compiled at start-up (validator.getRequestValidatorsForOperation). Each takes what the
// library's validateRequest builds from a request, { path, query, header, cookie, requestBody },
// and the parameters' validator (compiled with coerceTypes) coerces path and query values in
// place, so the handler gets them typed. validateRequest itself parses the request again
// first (a deep copy of the query, the cookies, a matcher compiled from the path template):
// about 15 us a request where the validators take under 1; the request here is already
// parsed (dispatch.ts). The body's inexact integers (http/exact-integers.ts) join the errors.
import type { ErrorObject } from 'ajv';
import { DomainError, errors, type FieldIssue } from '../errors/errors';
import { inexactIntegerErrors, withoutRounded } from './exact-integers';
import { pruneOneOfBranches } from './oneof-errors';
import { FORMAT_MESSAGES } from './openapi-formats';
import type { Route } from './routes';
import type { ParsedRequest } from './types';

// The request's validation errors ([] when valid). rawBody: the text of a JSON body whose
// integers must be written exactly (undefined: no such check).
export function requestErrors(route: Route, req: ParsedRequest, rawBody: string | undefined): ErrorObject[] {
  for (const name of route.arrayQuery) {
    const value = req.query[name];
    if (typeof value === 'string') req.query[name] = [value];
  }
  const input: Record<string, unknown> = { path: req.params, query: req.query, header: { ...req.headers }, cookie: {} };
  // (koa-body leaves a body parsed, JSON or form, or undefined: never text for the validator
  // to parse, which is all validateRequest does besides)
  if (typeof req.body === 'object' || isJsonRequest(req.headers)) input.requestBody = req.body;
  const found: ErrorObject[] = [];
  for (const validate of route.validators) if (!validate(input)) found.push(...(validate.errors ?? []));
  if (rawBody !== undefined) found.push(...inexactIntegerErrors(rawBody, route.bodySchema));
  return found;
}

function isJsonRequest(headers: ParsedRequest['headers']): boolean {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

// The validation errors as the catalog's validation error, one field issue each.
export function validationFailure(found: ErrorObject[]): DomainError {
  return errors.validation(issuesFromAjv(withoutRounded(pruneOneOfBranches(found))));
}

// ajv errors from openapi-backend's validators, as field issues (body value, query skip).
export function issuesFromAjv(list: ErrorObject[]): FieldIssue[] {
  return list.map((e) => {
    const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    if (missing) path.push(missing);
    if (extra) path.push(extra);
    const part = path[0] === 'query' || path[0] === 'path' ? path[0] : 'body';
    const field = path.slice(1).join('.');
    const message = extra
      ? 'is not an accepted field'
      : (allowedValuesMessage(e) ??
        FORMAT_MESSAGES[(e.params as { format?: string }).format ?? ''] ??
        e.message ??
        'is invalid');
    const issue: FieldIssue = { field, in: part, message };
    if (e.data !== undefined && typeof e.data !== 'object') issue.value = String(e.data);
    return issue;
  });
}

// The spec's enums are short; a long one is cut so an answer stays readable.
const MAX_LISTED_VALUES = 30;

// An enum or const error says what is accepted ("must be one of CNPJ, EVP"), not ajv's "must be
// equal to one of the allowed values".
function allowedValuesMessage(e: ErrorObject): string | undefined {
  if (e.keyword === 'const') return `must be ${String((e.params as { allowedValue?: unknown }).allowedValue)}`;
  if (e.keyword !== 'enum') return undefined;
  const allowed = ((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
  const listed = allowed.slice(0, MAX_LISTED_VALUES).join(', ');
  return `must be one of ${listed}${allowed.length > MAX_LISTED_VALUES ? ', ...' : ''}`;
}
