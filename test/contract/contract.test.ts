// The contract suite: replays every request example of both specs against a running server
// (which validates its own answers against the specs) and checks that the status is one of
// the operation's success statuses. Operations still answering 501 are listed as pending.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestServer } from '../support/server';
import { type Json, SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';
import { startContractEnv } from './scenarios/env';
import { type ContractEnv, scenarios } from './scenarios/index';

let server: TestServer;
let env: ContractEnv;
const pending: string[] = [];
let replayed = 0;

test.before(async () => {
  ({ server, env } = await startContractEnv());
});
test.after(async () => {
  await server.close();
  console.log(
    `\npending: ${pending.length} operations still answer 501${pending.length ? ` (${pending.join(', ')})` : ''}`,
  );
  console.log(`note: ${replayed} request examples replayed`);
});

function requestExamples(op: Json): Array<{ name: string; value: unknown; type: string }> {
  const out: Array<{ name: string; value: unknown; type: string }> = [];
  for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
    for (const [name, ex] of Object.entries<Json>(media.examples ?? {})) out.push({ name, value: ex.value, type });
  }
  return out;
}

for (const specName of SPEC_NAMES) {
  const spec = await loadDereferencedSpec(specName);
  for (const { method, path, operationId, op, pathItem } of operationsOf(spec)) {
    test(`${specName} ${operationId} replays its examples`, async () => {
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
        for (const p of params.filter((x: Json) => x.in === 'query' && x.required))
          query.set(p.name, String(p.example));
        for (const [k, v] of Object.entries(prepared.query ?? {})) query.set(k, v);
        if ([...query.keys()].length) url += `?${query}`;
        let auth: string | undefined = prepared.auth ?? undefined;
        if (prepared.auth === undefined && !open) auth = specName === 'platform' ? env.company.appID : env.bearer;
        const body = prepared.body ?? example?.value;
        const res = await server.client.request(method.toUpperCase(), url, {
          ...(auth ? { auth } : {}),
          ...(body === undefined
            ? {}
            : example?.type === 'application/x-www-form-urlencoded'
              ? { form: body as Record<string, string> }
              : { body }),
        });
        replayed++;
        if (res.status === 501) {
          pending.push(operationId);
          return;
        }
        const success = Object.keys(op.responses).filter((s) => /^2/.test(s));
        assert.ok(
          success.includes(String(res.status)),
          `${method.toUpperCase()} ${url} (${example?.name ?? 'no body'}) answered ${res.status}: ${res.text.slice(0, 600)}`,
        );
      }
    });
  }
}

test.run();
