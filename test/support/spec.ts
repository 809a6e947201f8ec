// Loads the two OpenAPI files once per process, dereferenced, for tests and tools.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { type SpecName, loadSpecDocument } from '../../src/http/spec-document';

export type { SpecName };
export const SPEC_NAMES: SpecName[] = ['platform', 'pix'];
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// deno-lint-ignore no-explicit-any
export type Json = any;

// The spec as the server loads it (a new object each call: callers may change it).
export function loadRawSpec(name: SpecName): Json {
  return loadSpecDocument(name);
}

const dereferenced = new Map<SpecName, Promise<Json>>();
export function loadDereferencedSpec(name: SpecName): Promise<Json> {
  let spec = dereferenced.get(name);
  if (!spec) {
    spec = $RefParser.dereference(loadRawSpec(name));
    dereferenced.set(name, spec);
  }
  return spec;
}

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  op: Json;
  pathItem: Json;
}

// Every operation of a spec, in file order.
export function operationsOf(spec: Json): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, pathItem] of Object.entries<Json>(spec.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (op) out.push({ method, path, operationId: op.operationId, op, pathItem });
    }
  }
  return out;
}
