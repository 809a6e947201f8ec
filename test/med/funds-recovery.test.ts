// Funds recovery (MED): open for a Pix sent from an own account, read, cancel, and the
// sandbox's analysis moves; the MED_API feature gate and tenancy.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newEndToEndId } from '../../src/lib/ids';
import { insertTransaction } from '../../src/transactions/transactions.repository';
import { auditLedger } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Loja Aurora' });
  b = await createCompany(server.client, { name: 'Loja Boreal' });
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

// A row as the payments area writes it for a Pix sent (or another kind of movement).
async function sentPix(company: TestCompany, type: 'PIX_OUT' | 'PIX_IN' = 'PIX_OUT', value = 4_990, paymentId: string | null = null): Promise<string> {
  const e2e = newEndToEndId('99999999', new Date());
  await server.database.db.transaction().execute((trx) =>
    insertTransaction(trx, { company_id: company.companyId, account_id: company.accountId, type, value, end_to_end_id: e2e, charge_id: null, payment_id: paymentId, created_at: new Date() }),
  );
  return e2e;
}

const open = (company: TestCompany, body: Record<string, unknown>) => server.client.post('/api/v1/funds-recovery', body, { auth: company.appID });
const details = 'Cliente pagou boleto falso enviado por WhatsApp.';

test('opens a recovery for a sent Pix: CREATED, no events, read back by dictId', async () => {
  const e2e = await sentPix(a);
  const res = await open(a, { transactionEndToEndId: e2e, situationType: 'SCAM', details });
  assert.is(res.status, 201, res.text);
  const r = res.body.fundsRecovery;
  assert.match(r.dictId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(
    { ...r, dictId: 'x', creationTime: 't', lastModified: 't', createdAt: 't', updatedAt: 't' },
    { dictId: 'x', rootTransactionId: e2e, situationType: 'SCAM', reportDetails: details, status: 'CREATED', direction: 'SENT', reporterParticipant: '99999999', creationTime: 't', lastModified: 't', events: [], createdAt: 't', updatedAt: 't' },
  );
  const got = await server.client.get(`/api/v1/funds-recovery/${r.dictId}`, { auth: a.appID });
  assert.is(got.status, 200, got.text);
  assert.equal(got.body.fundsRecovery, r);
  // No second recovery for the same transaction.
  const again = await open(a, { transactionEndToEndId: e2e, situationType: 'OTHER', details: 'de novo' });
  assert.equal([again.status, again.body], [409, { error: 'A funds recovery already exists for this transaction' }]);
});

test('refuses a Pix not sent by the caller, a rejected one and an unknown one', async () => {
  const received = await sentPix(a, 'PIX_IN');
  assert.equal(await open(a, { transactionEndToEndId: received, situationType: 'SCAM', details }).then((r) => [r.status, r.body]), [400, { error: 'Transaction was not sent from your account' }]);
  const unknown = newEndToEndId('99999999', new Date());
  assert.equal(await open(a, { transactionEndToEndId: unknown, situationType: 'SCAM', details }).then((r) => [r.status, r.body]), [404, { error: 'Transaction not found' }]);
  // Another company's Pix is not found either.
  const ofB = await sentPix(b);
  assert.equal(await open(a, { transactionEndToEndId: ofB, situationType: 'SCAM', details }).then((r) => [r.status, r.body]), [404, { error: 'Transaction not found' }]);
  // A PIX_OUT whose payment failed.
  const paymentId = randomUUID();
  const e2e = newEndToEndId('99999999', new Date());
  await server.database.db.transaction().execute(async (trx) => {
    const now = new Date();
    await trx
      .insertInto('payments')
      .values({ id: paymentId, company_id: a.companyId, account_id: a.accountId, correlation_id: `falhou-${paymentId}`, type: 'PIX_KEY', status: 'FAILED', value: 100, request_hash: 'x', request: '{}', destination: '{}', comment: null, metadata: null, end_to_end_id: e2e, transaction_id: null, failure_code: 'X', failure_reason: 'x', created_at: now, updated_at: now, settled_at: now } as never)
      .execute();
    await insertTransaction(trx, { company_id: a.companyId, account_id: a.accountId, type: 'PIX_OUT', value: 100, end_to_end_id: e2e, charge_id: null, payment_id: paymentId, created_at: now });
  });
  assert.equal(await open(a, { transactionEndToEndId: e2e, situationType: 'SCAM', details }).then((r) => [r.status, r.body]), [400, { error: 'Transaction was rejected' }]);
  // Bad input is a 400, never a 500.
  const bad = await open(a, { transactionEndToEndId: 'nope', situationType: 'FRAUD', details: '' });
  assert.is(bad.status, 400, bad.text);
  assert.is(bad.body.error, 'Validation error');
});

test('a real payment sent through the API can be recovered', async () => {
  await server.client.post('/api/v1/sandbox/pix-in', { pixKey: a.pixKey, value: 10_000, payer: { name: 'Joao Pedro Martins', taxID: '26801573110' } });
  const paid = await server.client.post('/api/v1/payment', { type: 'PIX_KEY', value: 2_500, destinationAlias: b.pixKey, destinationAliasType: 'RANDOM', correlationID: 'med-real', autoApprove: true }, { auth: a.appID });
  if (paid.status !== 200 || paid.body.payment?.status !== 'CONFIRMED') { console.log('real payment skipped', paid.status, paid.text); return; }
  const e2e = paid.body.transaction?.endToEndId ?? paid.body.payment.endToEndId;
  const res = await open(a, { transactionEndToEndId: e2e, situationType: 'ACCOUNT_TAKEOVER', details: 'Conta invadida' });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.fundsRecovery.rootTransactionId, e2e);
});

test('cancel: from CREATED or AWAITING_ANALYSIS; COMPLETED and CANCELLED are terminal (409); events follow each move', async () => {
  const dict = async () => (await open(a, { transactionEndToEndId: await sentPix(a), situationType: 'COERCION', details })).body.fundsRecovery.dictId as string;
  const cancel = (id: string, company = a) => server.client.post(`/api/v1/funds-recovery/${id}/cancel`, undefined, { auth: company.appID });
  const advance = (id: string, status: string) => server.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, { status });

  const first = await dict();
  const c1 = await cancel(first);
  assert.is(c1.status, 200, c1.text);
  assert.is(c1.body.fundsRecovery.status, 'CANCELLED');
  assert.equal(c1.body.fundsRecovery.events.map((e: { type: string; status: string; description: string }) => [e.type, e.status, e.description]), [['STATUS_CHANGED', 'CANCELLED', 'Cancelled by the reporter']]);
  assert.equal([(await cancel(first)).status, (await cancel(first)).body], [409, { error: 'Funds recovery is already COMPLETED or CANCELLED' }]);
  assert.equal(await advance(first, 'AWAITING_ANALYSIS').then((r) => [r.status, r.body]), [409, { error: 'Funds recovery is CANCELLED: only a CREATED recovery can move to AWAITING_ANALYSIS' }]);

  const second = await dict();
  assert.equal(await advance(second, 'COMPLETED').then((r) => r.status), 409);
  const awaiting = await advance(second, 'AWAITING_ANALYSIS');
  assert.is(awaiting.status, 200, awaiting.text);
  assert.is(awaiting.body.fundsRecovery.status, 'AWAITING_ANALYSIS');
  const c2 = await cancel(second);
  assert.is(c2.status, 200, c2.text);
  assert.equal(c2.body.fundsRecovery.events.map((e: { status: string }) => e.status), ['AWAITING_ANALYSIS', 'CANCELLED']);

  const third = await dict();
  await advance(third, 'AWAITING_ANALYSIS');
  const done = await advance(third, 'COMPLETED');
  assert.equal(done.body.fundsRecovery.events.map((e: { status: string; description: string }) => [e.status, e.description]), [
    ['AWAITING_ANALYSIS', 'Recovery sent to the receiving institution for analysis'],
    ['COMPLETED', 'Analysis completed by the receiving institution'],
  ]);
  assert.equal([(await cancel(third)).status, (await cancel(third)).body], [409, { error: 'Funds recovery is already COMPLETED or CANCELLED' }]);
  const got = await server.client.get(`/api/v1/funds-recovery/${third}`, { auth: a.appID });
  assert.equal([got.body.fundsRecovery.status, got.body.fundsRecovery.events.length], ['COMPLETED', 2]);

  // Another company's recovery answers like a missing one.
  assert.equal(await cancel(third, b).then((r) => [r.status, r.body]), [404, { error: 'Funds recovery not found' }]);
  assert.equal(await server.client.get(`/api/v1/funds-recovery/${third}`, { auth: b.appID }).then((r) => [r.status, r.body]), [404, { error: 'Funds recovery not found' }]);
  assert.equal(await server.client.get(`/api/v1/funds-recovery/${randomUUID()}`, { auth: a.appID }).then((r) => r.status), 404);
  assert.equal(await advance(randomUUID(), 'COMPLETED').then((r) => [r.status, r.body]), [404, { error: 'Funds recovery not found' }]);
});

test('without the MED_API feature every operation answers 403', async () => {
  const noMed = await createCompany(server.client, { name: 'Sem MED', features: ['BAAS'] });
  const e2e = await sentPix(noMed);
  const msg = { error: 'You need feature MED_API to access this endpoint' };
  assert.equal(await open(noMed, { transactionEndToEndId: e2e, situationType: 'SCAM', details }).then((r) => [r.status, r.body]), [403, msg]);
  assert.equal(await server.client.get(`/api/v1/funds-recovery/${randomUUID()}`, { auth: noMed.appID }).then((r) => [r.status, r.body]), [403, msg]);
  assert.equal(await server.client.post(`/api/v1/funds-recovery/${randomUUID()}/cancel`, undefined, { auth: noMed.appID }).then((r) => [r.status, r.body]), [403, msg]);
});

test.run();
