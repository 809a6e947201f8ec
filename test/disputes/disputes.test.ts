// Disputes: opened by the payer of a received Pix (sandbox), read, listed, evidence, resolved;
// the disputed amount is held in the security bucket while open; events in the outbox.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { applyMove, counterLeg, OUTSIDE } from '../../src/ledger/ledger.service';
import { newEndToEndId } from '../../src/lib/ids';
import { auditLedger } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Loja Aurora' });
  b = await createCompany(server.client, { name: 'Loja Boreal' });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

async function receive(company: TestCompany, value: number): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: company.pixKey, value, payer });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}
const openDispute = (body: Record<string, unknown>) => server.client.post('/api/v1/sandbox/disputes', body);
const resolve = (e2e: string, outcome: string) =>
  server.client.post(`/api/v1/sandbox/disputes/${e2e}/resolve`, { outcome });
const evidence = (company: TestCompany, e2e: string, documents: unknown[]) =>
  server.client.post(`/api/v1/dispute/${e2e}/evidence`, { documents }, { auth: company.appID });
async function balance(company: TestCompany) {
  const res = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  const { total, available, blockedBySecurity } = res.body.account.balance;
  return { total, available, blockedBySecurity };
}

test('a payer opens a dispute on a received Pix: CREATED, amount held, DISPUTE_CREATE recorded', async () => {
  const e2e = await receive(a, 15_990);
  const res = await openDispute({
    endToEndId: e2e,
    reason: 'Produto nao entregue',
    email: 'mariana.costa@email.com.br',
  });
  assert.is(res.status, 201, res.text);
  const d = res.body.dispute;
  assert.equal(
    { ...d, createdAt: 't', updatedAt: 't' },
    {
      status: 'CREATED',
      type: 'DISPUTE',
      name: 'Mariana Alves Costa',
      email: 'mariana.costa@email.com.br',
      value: 15_990,
      disputeReason: 'Produto nao entregue',
      endToEndId: e2e,
      evidences: [],
      createdAt: 't',
      updatedAt: 't',
    },
  );
  assert.equal(await balance(a), { total: 15_990, available: 0, blockedBySecurity: 15_990 });
  const got = await server.client.get(`/api/v1/dispute/${e2e}`, { auth: a.appID });
  assert.equal([got.status, got.body], [200, { dispute: d }]);
  const events = await listEventsOfCompany(server.database.db, a.companyId, 'DISPUTE_CREATE');
  assert.is(events.length, 1);
  assert.equal(events[0]!.payload, {
    dispute: d,
    pix: { endToEndId: e2e, value: 15_990, time: (events[0]!.payload as any).pix.time },
  });
  // One dispute per Pix; refusals.
  assert.equal(await openDispute({ endToEndId: e2e, reason: 'de novo' }).then((r) => [r.status, r.body]), [
    409,
    { error: 'A dispute already exists for this Pix' },
  ]);
  const unknown = newEndToEndId('99999999', new Date());
  assert.equal(await openDispute({ endToEndId: unknown, reason: 'x' }).then((r) => [r.status, r.body]), [
    404,
    { error: 'Pix not found' },
  ]);
  const small = await receive(a, 1_000);
  const tooMuch = await openDispute({ endToEndId: small, reason: 'x', value: 1_001 });
  assert.equal([tooMuch.status, tooMuch.body.error], [400, 'The disputed value cannot be more than the Pix value']);
  assert.is((await openDispute({ endToEndId: small, reason: '' })).status, 400);
  // Another company's dispute answers like a missing one.
  assert.equal(await server.client.get(`/api/v1/dispute/${e2e}`, { auth: b.appID }).then((r) => [r.status, r.body]), [
    404,
    { error: 'Dispute not found' },
  ]);
  assert.equal(await evidence(b, e2e, [{ url: 'https://x.example/a.pdf' }]).then((r) => [r.status, r.body]), [
    404,
    { error: 'Dispute not found' },
  ]);
});

test('evidence: the first upload puts it IN_REVIEW; a same correlationID replaces; empty url refused', async () => {
  const e2e = await receive(b, 5_000);
  await openDispute({
    endToEndId: e2e,
    reason: 'Cobranca duplicada',
    type: 'MED',
    name: 'Outro Nome',
    phoneNumber: '+5511987654321',
  });
  const doc = {
    url: 'https://arquivos.example.com/184-rastreio.pdf',
    correlationID: 'evidencia-1',
    description: 'Comprovante de entrega',
  };
  const up = await evidence(b, e2e, [doc]);
  assert.equal([up.status, up.body], [200, { documents: [doc] }]);
  const doc2 = {
    url: 'https://arquivos.example.com/184-nota.pdf',
    correlationID: 'evidencia-1',
    description: 'Nota fiscal',
  };
  const doc3 = { url: 'https://arquivos.example.com/184-chat.png' };
  assert.equal((await evidence(b, e2e, [doc2, doc3])).body, { documents: [doc2, doc3] });
  const got = (await server.client.get(`/api/v1/dispute/${e2e}`, { auth: b.appID })).body.dispute;
  assert.equal(
    [got.status, got.type, got.name, got.phoneNumber, got.evidences],
    ['IN_REVIEW', 'MED', 'Outro Nome', '+5511987654321', [doc2, doc3]],
  );
  const empty = await evidence(b, e2e, [{ url: '' }]);
  assert.equal([empty.status, empty.body.error], [400, 'Validation error']);
  assert.is((await evidence(b, e2e, [])).status, 400);
});

test('accepted: the held amount leaves the account; rejected and canceled: released; closed disputes refuse evidence and a second outcome', async () => {
  const c = await createCompany(server.client, { name: 'Loja Cometa' });
  const accepted = await receive(c, 7_000);
  const rejected = await receive(c, 2_000);
  const canceled = await receive(c, 1_000);
  await openDispute({ endToEndId: accepted, reason: 'a', value: 4_000 });
  await openDispute({ endToEndId: rejected, reason: 'b' });
  await openDispute({ endToEndId: canceled, reason: 'c' });
  assert.equal(await balance(c), { total: 10_000, available: 3_000, blockedBySecurity: 7_000 });

  const acc = await resolve(accepted, 'ACCEPTED');
  assert.equal([acc.status, acc.body.dispute.status, acc.body.dispute.value], [200, 'ACCEPTED', 4_000]);
  // Returned through the rail: the money leaves when the rail settles the devolution.
  await server.services.jobs.runNow('pixin.devolutions');
  assert.equal(await balance(c), { total: 6_000, available: 3_000, blockedBySecurity: 3_000 });
  assert.equal((await resolve(rejected, 'REJECTED')).body.dispute.status, 'REJECTED');
  assert.equal((await resolve(canceled, 'CANCELED')).body.dispute.status, 'CANCELED');
  assert.equal(await balance(c), { total: 6_000, available: 6_000, blockedBySecurity: 0 });

  assert.equal(await resolve(accepted, 'REJECTED').then((r) => [r.status, r.body]), [
    409,
    { error: 'Dispute is already ACCEPTED' },
  ]);
  assert.equal(await balance(c), { total: 6_000, available: 6_000, blockedBySecurity: 0 });
  assert.equal(await evidence(c, accepted, [{ url: 'https://x.example/a.pdf' }]).then((r) => [r.status, r.body]), [
    400,
    { error: 'You cannot send a evidence for a accepted dispute' },
  ]);
  assert.equal(
    await evidence(c, rejected, [{ url: 'https://x.example/a.pdf' }]).then((r) => r.body.error),
    'You cannot send a evidence for a rejected dispute',
  );
  assert.equal(await resolve(newEndToEndId('99999999', new Date()), 'ACCEPTED').then((r) => [r.status, r.body]), [
    404,
    { error: 'Dispute not found' },
  ]);

  const types = (await listEventsOfCompany(server.database.db, c.companyId))
    .map((e) => e.type)
    .filter((t) => t.startsWith('DISPUTE_'));
  assert.equal(types, [
    'DISPUTE_CREATE',
    'DISPUTE_CREATE',
    'DISPUTE_CREATE',
    'DISPUTE_ACCEPTED',
    'DISPUTE_REJECTED',
    'DISPUTE_CANCELED',
  ]);
  const accEvent = (await listEventsOfCompany(server.database.db, c.companyId, 'DISPUTE_ACCEPTED'))[0]!;
  assert.equal((accEvent.payload as any).dispute, acc.body.dispute);
});

test('the hold never takes the balance below zero: only what is available is held, and only that is debited', async () => {
  const d = await createCompany(server.client, { name: 'Loja Delta' });
  const e2e = await receive(d, 10_000);
  // 8,000 already left the account (as a payment would).
  const out = await server.database.db.transaction().execute((trx) =>
    applyMove(trx, {
      moveId: 'test-out:delta',
      legs: [{ accountId: d.accountId, kind: 'DEBIT', amount: 8_000 as never }, counterLeg(OUTSIDE, 8_000)],
      at: new Date(),
    }),
  );
  assert.ok(out.ok);
  await openDispute({ endToEndId: e2e, reason: 'Nao reconheco' });
  assert.equal(await balance(d), { total: 2_000, available: 0, blockedBySecurity: 2_000 });
  await resolve(e2e, 'ACCEPTED');
  await server.services.jobs.runNow('pixin.devolutions');
  assert.equal(await balance(d), { total: 0, available: 0, blockedBySecurity: 0 });
});

test('accepted: returned through the rail as a devolution (MED_FRAUDE for a MED dispute), in the transactions', async () => {
  const f = await createCompany(server.client, { name: 'Loja Fenix' });
  const med = await receive(f, 3_000);
  const plain = await receive(f, 2_000);
  await openDispute({ endToEndId: med, reason: 'Golpe', type: 'MED' });
  await openDispute({ endToEndId: plain, reason: 'Produto nao entregue' });
  await receive(f, 1_000);
  // A part of the second Pix is refunded while disputed: only the rest goes back.
  const refund = await server.client.post(
    '/api/v1/refund',
    { transactionEndToEndId: plain, value: 500, correlationID: 'dispute-partial' },
    { auth: f.appID },
  );
  assert.is(refund.status, 200, refund.text);
  await resolve(med, 'ACCEPTED');
  await resolve(plain, 'ACCEPTED');
  await server.services.jobs.runNow('pixin.devolutions');
  const devolutions = await server.database.db
    .selectFrom('pix_devolutions')
    .select(['end_to_end_id', 'natureza', 'status', 'value'])
    .where('company_id', '=', f.companyId)
    .orderBy('value', 'desc')
    .execute();
  assert.equal(devolutions, [
    { end_to_end_id: med, natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', value: 3_000 },
    { end_to_end_id: plain, natureza: 'ORIGINAL', status: 'DEVOLVIDO', value: 1_500 },
    { end_to_end_id: plain, natureza: 'ORIGINAL', status: 'DEVOLVIDO', value: 500 },
  ]);
  const refunds = await server.client.get('/api/v1/transaction?type=REFUND', { auth: f.appID });
  assert.equal(
    refunds.body.transactions.map((t: { value: number }) => t.value).sort((x: number, y: number) => x - y),
    [500, 1_500, 3_000],
  );
  assert.equal(await balance(f), { total: 1_000, available: 1_000, blockedBySecurity: 0 });
});

test('list: newest first, start/end, skip/limit with pageInfo, only the caller company', async () => {
  const e = await createCompany(server.client, { name: 'Loja Eco' });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const e2e = await receive(e, 100 + i);
    await openDispute({ endToEndId: e2e, reason: `r${i}` });
    ids.push(e2e);
  }
  const list = await server.client.get('/api/v1/dispute?limit=2', { auth: e.appID });
  assert.is(list.status, 200, list.text);
  assert.equal(
    list.body.disputes.map((x: { endToEndId: string }) => x.endToEndId),
    [ids[2], ids[1]],
  );
  assert.equal(list.body.pageInfo, { skip: 0, limit: 2, totalCount: 3, hasPreviousPage: false, hasNextPage: true });
  const second = await server.client.get('/api/v1/dispute?limit=2&skip=2', { auth: e.appID });
  assert.equal(
    second.body.disputes.map((x: { endToEndId: string }) => x.endToEndId),
    [ids[0]],
  );
  const future = new Date(Date.now() + 86_400_000 * 400).toISOString();
  const none = await server.client.get(`/api/v1/dispute?start=${encodeURIComponent(future)}`, { auth: e.appID });
  assert.equal(none.body, {
    disputes: [],
    pageInfo: { skip: 0, limit: 20, totalCount: 0, hasPreviousPage: false, hasNextPage: false },
  });
  const all = await server.client.get(`/api/v1/dispute?end=${encodeURIComponent(future)}`, { auth: e.appID });
  assert.is(all.body.pageInfo.totalCount, 3);
  const bad = await server.client.get(`/api/v1/dispute?start=${encodeURIComponent(future)}&end=2020-01-01T00:00:00Z`, {
    auth: e.appID,
  });
  assert.equal([bad.status, bad.body.error], [400, 'Invalid end']);
  assert.is((await server.client.get('/api/v1/dispute?start=ontem', { auth: e.appID })).status, 400);
});

test.run();
