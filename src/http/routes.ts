// What dispatch needs of one operation, read once at start-up from the operation openapi-backend
// dereferenced: its security requirements, its request validators and which of its query
// parameters are arrays (dispatch reads path parameters as it matches the path).
import type { ValidateFunction } from 'ajv';
import type { Operation } from 'openapi-backend';
import type { OperationMeta } from './types';

export interface Route {
  meta: OperationMeta;
  operation: Operation;
  // The security requirements, alternatives each naming the schemes that must all pass (an
  // empty one passes without credentials); and every scheme they name, once.
  requirements: string[][];
  schemes: string[];
  // openapi-backend's request validators of the operation (its body's, then its parameters').
  validators: ValidateFunction[];
  // Query parameters whose schema is an array: a value given once becomes a one-item array,
  // as openapi-backend's validateRequest makes it.
  arrayQuery: ReadonlySet<string>;
  // The (dereferenced) schema of a JSON body: tolerance and the exact-integer check walk it.
  bodySchema: object | undefined;
}

type Parameter = {
  name: string;
  in: string;
  schema?: { type?: unknown };
  content?: unknown;
  explode?: boolean;
};

export function routeOf(meta: OperationMeta, operation: Operation, validators: ValidateFunction[]): Route {
  const parameters = (operation.parameters ?? []) as Parameter[];
  refuseUnread(meta.operationId, parameters);
  const requirements = (operation.security ?? []).map((requirement) => Object.keys(requirement));
  const body = operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined;
  return {
    meta,
    operation,
    requirements,
    schemes: [...new Set(requirements.flat())],
    validators,
    arrayQuery: new Set(parameters.filter((p) => p.in === 'query' && p.schema?.type === 'array').map((p) => p.name)),
    bodySchema: body?.content?.['application/json']?.schema,
  };
}

// What openapi-backend's request parser reads and dispatch does not (cookies, query values in
// JSON or in one comma-separated value): a spec that starts using one fails at start-up, not
// by validating requests differently.
function refuseUnread(operationId: string, parameters: Parameter[]): void {
  for (const p of parameters) {
    const unread = p.in === 'cookie' || (p.in === 'query' && (p.content !== undefined || p.explode === false));
    if (unread) throw new Error(`${operationId}: parameter ${p.name} (in ${p.in}) is of a kind dispatch does not read`);
  }
}
