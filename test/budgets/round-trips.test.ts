// Round-trip budgets: every operation of both specs is replayed (the contract scenarios'
// requests) and the statements each request sent to the database (X-Db-Statements, BEGIN and
// COMMIT included) must stay within the operation's budget in ./budgets.ts. The budget is on
// statements, not time, so it holds on any machine and either database. A change that adds
// round trips fails here and has to say why in the table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestServer } from '../support/server';
import { SPEC_NAMES, loadDereferencedSpec, operationsOf } from '../support/spec';
import { replayOperation } from '../contract/replay';
import { startContractEnv } from '../contract/scenarios/env';
import type { ContractEnv } from '../contract/scenarios/index';
import { ROUND_TRIPS } from './budgets';

let server: TestServer;
let env: ContractEnv;
const measured = new Map<string, number>();

test.before(async () => {
  ({ server, env } = await startContractEnv());
  // As `make run` does at start: the payload-signing key exists before the first payload read.
  await server.services.payloadKeys.ensure();
});
test.after(async () => {
  await server.close();
  const slack = [...measured].filter(([id, n]) => ROUND_TRIPS[id] !== undefined && n < ROUND_TRIPS[id]!.max);
  if (slack.length)
    console.log(
      `\nnote: below budget (the table can be lowered): ${slack.map(([id, n]) => `${id} ${n}/${ROUND_TRIPS[id]!.max}`).join(', ')}`,
    );
  const over = Object.entries(ROUND_TRIPS).filter(([, b]) => b.target !== undefined && b.max > b.target);
  if (over.length)
    console.log(
      `\npending: over their round-trip target: ${over.map(([id, b]) => `${id} ${b.max}/${b.target}`).join(', ')}`,
    );
  if (process.env.ROUND_TRIPS_PRINT) console.log([...measured].map(([id, n]) => `  ${id}: ${n},`).join('\n'));
});

for (const specName of SPEC_NAMES) {
  const spec = await loadDereferencedSpec(specName);
  for (const operation of operationsOf(spec)) {
    const { operationId } = operation;
    test(`${specName} ${operationId} stays within its round-trip budget`, async () => {
      const budget = ROUND_TRIPS[operationId];
      let most = 0;
      for await (const { example, url, response } of replayOperation(env, specName, operation)) {
        const header = response.headers.get('x-db-statements');
        assert.ok(header !== null, `${url} answered without X-Db-Statements`);
        const statements = Number(header);
        most = Math.max(most, statements);
        if (budget) {
          assert.ok(
            statements <= budget.max,
            `${operationId} (${example}) sent ${statements} statements; its budget is ${budget.max}`,
          );
        }
      }
      measured.set(operationId, most);
      assert.ok(budget, `${operationId} has no round-trip budget in test/budgets/budgets.ts (measured ${most})`);
    });
  }
}

// The reads of one object the issue names: one statement once the caller's credentials are
// cached, two on the first request of new credentials; a payload location needs none.
test('reads of one object: 2 statements with new credentials, then 1', async () => {
  const app = await server.client.post(
    '/api/v1/application',
    {
      accountId: env.company.accountId,
      application: { name: 'reader', type: 'API', scopes: ['CHARGE_GET', 'PAYMENT_GET', 'cob.read'] },
    },
    { auth: env.company.appID },
  );
  assert.is(app.status, 201, app.text);
  const charge = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'budget-read', value: 100 },
    { auth: env.company.appID },
  );
  const payment = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 100,
      destinationAlias: 'budget@example.com',
      destinationAliasType: 'EMAIL',
      correlationID: 'budget-read',
    },
    { auth: env.company.appID },
  );
  assert.is(payment.status, 200, payment.text);
  const token = (
    await server.client.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', scope: 'cob.read' },
      auth: `Basic ${Buffer.from(`${app.body.application.clientId}:${app.body.application.clientSecret}`).toString('base64')}`,
    })
  ).body.access_token;
  const statements = async (path: string, auth?: string) => {
    const res = await server.client.get(path, auth ? { auth } : {});
    assert.is(res.status, 200, `${path}: ${res.text}`);
    return Number(res.headers.get('x-db-statements'));
  };
  const appID = app.body.application.appID;
  // The first request of the new application reads it (2); from then on its credentials are cached.
  assert.is(await statements('/api/v1/charge/budget-read', appID), 2, 'charge read with new credentials');
  assert.is(await statements('/api/v1/charge/budget-read', appID), 1, 'charge read');
  assert.is(await statements('/api/v1/payment/budget-read', appID), 1, 'payment read');
  const cob = `/pix/v2/cob/${charge.body.charge.transactionID}`;
  assert.ok((await statements(cob, `Bearer ${token}`)) <= 2, cob);
  assert.is(await statements(cob, `Bearer ${token}`), 1, cob);
  const location = /\/qr\/v2\/([0-9a-f-]{36})/.exec(charge.body.brCode)![1];
  assert.is(await statements(`/qr/v2/${location}`), 1, 'payload location');
});

// The events API (a dashboard polls it): the list and the read of one event are one statement
// once the caller's credentials are cached, whatever the filters.
test('events list and read: 2 statements with new credentials, then 1', async () => {
  const app = await server.client.post(
    '/api/v1/application',
    {
      accountId: env.company.accountId,
      application: { name: 'events', type: 'API', scopes: ['EVENT_GET', 'EVENT_GET_LIST'] },
    },
    { auth: env.company.appID },
  );
  assert.is(app.status, 201, app.text);
  await server.client.post(
    '/api/v1/charge',
    { correlationID: 'budget-events', value: 100 },
    { auth: env.company.appID },
  );
  const appID = app.body.application.appID;
  const statements = async (path: string) => {
    const res = await server.client.get(path, { auth: appID });
    assert.is(res.status, 200, `${path}: ${res.text}`);
    return { n: Number(res.headers.get('x-db-statements')), body: res.body };
  };
  assert.is((await statements('/api/v1/events?limit=1')).n, 2, 'events list with new credentials');
  const first = await statements('/api/v1/events?limit=1');
  assert.is(first.n, 1, 'events list');
  const filtered = await statements(
    `/api/v1/events?type=OPENPIX:CHARGE_CREATED&type=PIXGATE:CHARGE_DELETED&correlationID=budget-events&start=2020-01-01T00:00:00Z&limit=5`,
  );
  assert.is(filtered.n, 1, 'filtered events list');
  assert.is(filtered.body.events.length, 1);
  assert.is((await statements(`/api/v1/events?limit=1&cursor=${first.body.nextCursor}`)).n, 1, 'next page');
  assert.is((await statements(`/api/v1/events/${filtered.body.events[0].id}`)).n, 1, 'event read');
});

// A creation with nothing else to write is one statement, without BEGIN and COMMIT, once the
// receiving key is cached; a PUT on a txid already taken falls back to the transaction that
// revises.
test('creations: one statement; a PUT that revises takes the full path', async () => {
  const auth = { auth: env.company.appID };
  const statements = (res: { status: number; text: string; headers: Headers }, status: number) => {
    assert.is(res.status, status, res.text);
    return Number(res.headers.get('x-db-statements'));
  };
  const post = (correlationID: string) => server.client.post('/api/v1/charge', { correlationID, value: 100 }, auth);
  await post('budget-warm');
  assert.is(statements(await post('budget-create'), 200), 1, 'POST /api/v1/charge');
  assert.is(statements(await post('budget-create'), 400), 2, 'a correlationID taken: the failed insert, then the read');
  const cob = (original: string) => ({
    calendario: { expiracao: 3600 },
    valor: { original },
    chave: env.company.pixKey,
  });
  const txid = 'budgetcreation0000000000000001';
  const put = (body: unknown) => server.client.put(`/pix/v2/cob/${txid}`, body, { auth: env.bearer });
  assert.is(statements(await put(cob('1.00')), 201), 1, 'PUT /pix/v2/cob on a new txid');
  const revised = await put(cob('2.00'));
  assert.ok(statements(revised, 201) <= 7, `a revising PUT sent ${revised.headers.get('x-db-statements')}`);
  assert.is(revised.body.revisao, 1);
  assert.is(revised.body.valor.original, '2.00');
  const cobv = {
    calendario: { dataDeVencimento: '2099-01-01' },
    devedor: { cpf: '12345678909', nome: 'Budget' },
    valor: { original: '3.00' },
    chave: env.company.pixKey,
  };
  const created = await server.client.put('/pix/v2/cobv/budgetcreation0000000000000002', cobv, { auth: env.bearer });
  assert.is(statements(created, 201), 2, 'PUT /pix/v2/cobv on a new txid: the batch check, the insert');
  // The txid of a cobv is refused to a cob as before (the full path's check).
  const taken = await server.client.put('/pix/v2/cob/budgetcreation0000000000000002', cob('1.00'), {
    auth: env.bearer,
  });
  assert.is(taken.status, 400, taken.text);
  assert.match(taken.body.detail, /in use by a cobv/);
});

test('every budget names an operation of the specs', async () => {
  const ids = new Set<string>();
  for (const specName of SPEC_NAMES)
    for (const op of operationsOf(await loadDereferencedSpec(specName))) ids.add(op.operationId);
  const unknown = Object.keys(ROUND_TRIPS).filter((id) => !ids.has(id));
  assert.equal(unknown, [], 'budgets of operations the specs no longer have');
});

test.run();
