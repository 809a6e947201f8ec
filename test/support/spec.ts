// Loads the two OpenAPI files once per process, dereferenced, for tests and tools.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { parse } from 'yaml';

export type SpecName = 'platform' | 'pix';
export const SPEC_NAMES: SpecName[] = ['platform', 'pix'];
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

// deno-lint-ignore no-explicit-any
export type Json = any;

export function specPath(name: SpecName): string {
  return resolve(import.meta.dirname, '../../specs', `${name}.yaml`);
}

export function loadRawSpec(name: SpecName): Json {
  return parse(readFileSync(specPath(name), 'utf8'));
}

const dereferenced = new Map<SpecName, Promise<Json>>();
export function loadDereferencedSpec(name: SpecName): Promise<Json> {
  let spec = dereferenced.get(name);
  if (!spec) {
    spec = $RefParser.dereference(structuredClone(loadRawSpec(name)));
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
