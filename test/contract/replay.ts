// Replays the request examples of one operation of our specs against a running server, as
// the contract scenarios prepare them (parameters, state, credentials). Shared by the
// contract suite (the answers) and the round-trip budgets (the statements each one sent).
import * as assert from 'uvu/assert';
import type { TestResponse } from '../support/server';
import type { Json, SpecName, SpecOperation } from '../support/spec';
import { type ContractEnv, scenarios } from './scenarios/index';

export interface ReplayedRequest {
  example: string;
  url: string;
  response: TestResponse;
}

function requestExamples(op: Json): Array<{ name: string; value: unknown; type: string }> {
  const out: Array<{ name: string; value: unknown; type: string }> = [];
  for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
    for (const [name, ex] of Object.entries<Json>(media.examples ?? {})) out.push({ name, value: ex.value, type });
  }
  return out;
}

// Each example of the operation in turn (or one request without a body when it has none).
export async function* replayOperation(
  env: ContractEnv,
  specName: SpecName,
  { method, path, operationId, op, pathItem }: SpecOperation,
): AsyncGenerator<ReplayedRequest> {
  const examples = requestExamples(op);
  const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])];
  const open = Array.isArray(op.security) && op.security.length === 0;
  for (const example of examples.length ? examples : [undefined]) {
    const prepared = (await scenarios[operationId]?.(env, example?.value)) ?? {};
    let url = path;
    for (const p of params.filter((x: Json) => x.in === 'path')) {
      const value = prepared.params?.[p.name] ?? p.example;
      assert.ok(value !== undefined, `path parameter ${p.name} has no example`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    }
    const query = new URLSearchParams();
    for (const p of params.filter((x: Json) => x.in === 'query' && x.required)) query.set(p.name, String(p.example));
    for (const [k, v] of Object.entries(prepared.query ?? {})) query.set(k, v);
    if ([...query.keys()].length) url += `?${query}`;
    let auth: string | undefined = prepared.auth ?? undefined;
    if (prepared.auth === undefined && !open) auth = specName === 'platform' ? env.company.appID : env.bearer;
    const body = prepared.body ?? example?.value;
    const form = example?.type === 'application/x-www-form-urlencoded';
    const response = await env.client.request(method.toUpperCase(), url, {
      ...(auth ? { auth } : {}),
      ...(body === undefined ? {} : form ? { form: body as Record<string, string> } : { body }),
    });
    yield { example: example?.name ?? 'no body', url, response };
  }
}
