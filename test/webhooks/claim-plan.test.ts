// The delivery worker's claim chooses the due deliveries once per statement. When its
// subquery named the deliveries' table instead of its own alias, the subquery became
// correlated with the outer UPDATE: the database ran it (sort, lock and all) once per row of
// the table, a claim of 5 took 21, and a 1,000-delivery backlog cost about 50 ms a claim
// (drained at 150 a second). Checked on what a claim returns (both databases) and on
// Postgres's plan.
import { CompiledQuery } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { claimDueDeliveriesQuery } from '../../src/webhooks/webhooks.repository';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import { record } from './receiver';

let server: TestServer;
let acme: TestCompany;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await createCompany(server.client);
  const created = await server.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'plan', event: 'OPENPIX:CHARGE_CREATED', url: 'http://127.0.0.1:9/hook' } },
    { auth: acme.appID },
  );
  assert.is(created.status, 200, created.text);
  // 40 pending deliveries, 20 objects with two each (the order rule has work to do).
  for (let i = 0; i < 40; i++)
    await record(server, acme.companyId, 'OPENPIX:CHARGE_CREATED', {
      charge: { globalID: `plan-${i % 20}`, correlationID: `plan-${i % 20}`, value: 100 },
    });
  await server.services.webhookDelivery.fanOut();
});
test.after(async () => {
  await server.close();
});

interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

test('the due deliveries are locked by a subquery run once, not once per row', async () => {
  const query = claimDueDeliveriesQuery(server.database.db, 32, 60_000, 'plan-token').compile();
  const { rows } = await server.database.db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const raw = rows[0]!['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const all = nodesOf(plan[0]!.Plan);
  assert.ok(
    all.some((n) => n['Node Type'] === 'LockRows'),
    'the plan locks rows (FOR UPDATE SKIP LOCKED)',
  );
  // A correlated subquery is a SubPlan node re-run for each outer row; the locking subquery
  // must not be one (an uncorrelated one is an InitPlan or a join, run once).
  const correlated = all.filter((n) => n['Parent Relationship'] === 'SubPlan');
  const lockingCorrelated = correlated.filter((n) => nodesOf(n).some((m) => m['Node Type'] === 'LockRows'));
  assert.equal(
    lockingCorrelated.map((n) => n['Subplan Name']),
    [],
    JSON.stringify(plan, null, 1).slice(0, 4000),
  );
});

test('a claim takes at most its limit, each object first delivery first, and leases them', async () => {
  const db = server.database.db;
  const first = await claimDueDeliveriesQuery(db, 5, 60_000, 'claim-a').execute();
  assert.is(first.length, 5);
  const second = await claimDueDeliveriesQuery(db, 50, 60_000, 'claim-b').execute();
  // The webhook's own test delivery aside: the first delivery of each of the 20 objects; the
  // second ones wait for the first.
  const claimed = [...first, ...second].filter((d) => !d.is_test);
  assert.is(claimed.length, 20);
  assert.is(new Set(claimed.map((d) => d.id)).size, 20, 'no delivery claimed twice');
  assert.is(new Set(claimed.map((d) => d.object_id)).size, 20, 'one delivery of each object');
  assert.ok(
    claimed.every((d) => d.lease_token !== null),
    'leased',
  );
  assert.is((await claimDueDeliveriesQuery(db, 50, 60_000, 'claim-c').execute()).length, 0);
});

test.run();
