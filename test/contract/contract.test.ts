// The contract suite: replays every request example of both specs against a running server
// (which validates its own answers against the specs) and checks that the status is one of
// the operation's success statuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestServer } from '../support/server';
import { SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';
import { replayOperation } from './replay';
import { startContractEnv } from './scenarios/env';
import type { ContractEnv } from './scenarios/index';

let server: TestServer;
let env: ContractEnv;
let replayed = 0;

test.before(async () => {
  ({ server, env } = await startContractEnv());
});
test.after(async () => {
  await server.close();
  console.log(`note: ${replayed} request examples replayed`);
});

for (const specName of SPEC_NAMES) {
  const spec = await loadDereferencedSpec(specName);
  for (const operation of operationsOf(spec)) {
    const { method, operationId, op } = operation;
    test(`${specName} ${operationId} replays its examples`, async () => {
      for await (const { example, url, response: res } of replayOperation(env, specName, operation)) {
        replayed++;
        const success = Object.keys(op.responses).filter((s) => /^2/.test(s));
        assert.ok(
          success.includes(String(res.status)),
          `${method.toUpperCase()} ${url} (${example}) answered ${res.status}: ${res.text.slice(0, 600)}`,
        );
      }
    });
  }
}

test.run();
