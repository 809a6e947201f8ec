// The cross-company sweep: for every authenticated operation that names a resource in its
// path, company B asking for company A's resource gets exactly what it gets for a resource
// that does not exist (same status, same error type): never 403, never A's data. A's
// resources come from the contract scenarios, so the sweep grows with them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { type Json, SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';
import { type ContractEnv, scenarios } from './scenarios/index';

// Operations whose path names something that is not a company's resource.
const NOT_TENANT_SCOPED: Record<string, string> = {
  checkPixKey: 'a DICT lookup: any key of any owner is meant to be found',
  putCob: 'the caller chooses the txid: B creates its own cob under it (txids are unique per company)',
  putCobv: 'the caller chooses the txid: B creates its own cobv under it',
  putLoteCobv: 'the caller chooses the batch id: B creates its own batch under it',
  putCobr: 'the caller chooses the txid: B creates its own cobr under it',
  setCompanyFeatures: 'platform operators act on any company: their token is no company credential',
};

let server: TestServer;
let envA: ContractEnv;
let other: TestCompany;
let otherBearer: string;
let swept = 0;

test.before(async () => {
  server = await startTestServer();
  const a = await createCompany(server.client);
  envA = {
    client: server.client,
    company: a,
    bearer: await pixToken(server.client, a),
    db: server.database.db,
    runJob: (name) => server.services.jobs.runNow(name),
    flushRequestLog: () => server.services.requestLogs.flush(),
  };
  other = await createCompany(server.client);
  otherBearer = await pixToken(server.client, other);
});
test.after(async () => {
  await server.close();
  console.log(`\nnote: ${swept} operations swept with another company's resources`);
});

function fill(path: string, params: Json[], values: Record<string, string>): string {
  let url = path;
  for (const p of params) url = url.replace(`{${p.name}}`, encodeURIComponent(String(values[p.name] ?? p.example)));
  return url;
}

// What must match between "theirs" and "missing": the status and the kind of error.
function shape(res: { status: number; body: any }): string {
  const kind =
    typeof res.body === 'object' && res.body
      ? (res.body.type ?? (typeof res.body.error === 'string' ? 'error' : 'body'))
      : 'text';
  return `${res.status} ${kind}`;
}

for (const specName of SPEC_NAMES) {
  const spec = await loadDereferencedSpec(specName);
  for (const { method, path, operationId, op, pathItem } of operationsOf(spec)) {
    const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])];
    const pathParams = params.filter((p: Json) => p.in === 'path');
    const open = Array.isArray(op.security) && op.security.length === 0;
    if (open || pathParams.length === 0 || NOT_TENANT_SCOPED[operationId] || !scenarios[operationId]) continue;
    test(`${specName} ${operationId}: another company's resource is answered like a missing one`, async () => {
      const example = Object.values<Json>(Object.values<Json>(op.requestBody?.content ?? {})[0]?.examples ?? {})[0]
        ?.value;
      const prepared = await scenarios[operationId]!(envA, example);
      if (!prepared.params) return;
      swept++;
      const auth = specName === 'platform' ? other.appID : otherBearer;
      const query = new URLSearchParams();
      for (const p of params.filter((x: Json) => x.in === 'query' && x.required)) query.set(p.name, String(p.example));
      for (const [k, v] of Object.entries(prepared.query ?? {})) query.set(k, v);
      const suffix = [...query.keys()].length ? `?${query}` : '';
      const body = prepared.body ?? example;
      const call = (url: string) =>
        server.client.request(method.toUpperCase(), url + suffix, { auth, ...(body === undefined ? {} : { body }) });
      const theirs = await call(fill(path, pathParams, prepared.params));
      const missing = await call(fill(path, pathParams, {}));
      assert.is.not(theirs.status, 403, `${operationId}: 403 reveals that the resource exists`);
      assert.ok(
        theirs.status >= 400,
        `${operationId} answered ${theirs.status} with another company's resource: ${theirs.text.slice(0, 300)}`,
      );
      assert.is(
        shape(theirs),
        shape(missing),
        `${operationId}: ${theirs.text.slice(0, 200)} vs missing ${missing.text.slice(0, 200)}`,
      );
    });
  }
}

test('the sweep itself catches a leak', async () => {
  // Guards the check: the caller's own account is found, so "theirs" differs from "missing".
  const mine = await server.client.get(`/api/v1/account/${other.accountId}`, { auth: other.appID });
  const missing = await server.client.get('/api/v1/account/00000000-0000-0000-0000-000000000000', {
    auth: other.appID,
  });
  assert.is.not(shape(mine), shape(missing));
});

test.run();
