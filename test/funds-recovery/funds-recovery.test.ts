// Funds recovery (MED): open for a Pix sent from an own account, read, cancel, and the
// sandbox's analysis moves; the MED_API feature gate and tenancy. Every Pix here is real (a
// payment through the API, or a Pix received from the sandbox's payer), so the money-out
// audit after the file holds: each PIX_OUT is backed by debits of its value.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newEndToEndId } from '../../src/lib/ids';
import { auditMoneyOut } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let sent = 0;

const OUTSIDE_KEY = 'fornecedor@tecidosbrasil.com.br';

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Loja Aurora' });
  b = await createCompany(server.client, { name: 'Loja Boreal' });
  await receive(a, 100_000);
  await receive(b, 100_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

// A Pix from the sandbox's outside payer to the company's key: its endToEndId.
async function receive(company: TestCompany, value: number): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: company.pixKey,
    value,
    payer: { name: 'Joao Pedro Martins', taxID: '26801573110' },
  });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

// A Pix the company sends through the API (auto-approved): its endToEndId. It must end as
// expected, or the test fails here.
async function sentPix(
  company: TestCompany,
  key = OUTSIDE_KEY,
  status: 'CONFIRMED' | 'FAILED' = 'CONFIRMED',
): Promise<string> {
  const res = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 990,
      destinationAlias: key,
      destinationAliasType: 'EMAIL',
      correlationID: `med-${++sent}`,
      autoApprove: true,
    },
    { auth: company.appID },
  );
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, status, res.text);
  assert.match(res.body.transaction.endToEndId, /^E99999999/);
  return res.body.transaction.endToEndId;
}

const open = (company: TestCompany, body: Record<string, unknown>) =>
  server.client.post('/api/v1/funds-recovery', body, { auth: company.appID });
const details = 'Cliente pagou boleto falso enviado por WhatsApp.';

test('opens a recovery for a sent Pix: CREATED, no events, read back by dictId', async () => {
  const e2e = await sentPix(a);
  const res = await open(a, { transactionEndToEndId: e2e, situationType: 'SCAM', details });
  assert.is(res.status, 201, res.text);
  const r = res.body.fundsRecovery;
  assert.match(r.dictId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(
    { ...r, dictId: 'x', creationTime: 't', lastModified: 't', createdAt: 't', updatedAt: 't' },
    {
      dictId: 'x',
      rootTransactionId: e2e,
      situationType: 'SCAM',
      reportDetails: details,
      status: 'CREATED',
      direction: 'SENT',
      reporterParticipant: '99999999',
      value: 990,
      blockedValue: 0,
      recoveredValue: 0,
      creationTime: 't',
      lastModified: 't',
      events: [],
      createdAt: 't',
      updatedAt: 't',
    },
  );
  const got = await server.client.get(`/api/v1/funds-recovery/${r.dictId}`, { auth: a.appID });
  assert.is(got.status, 200, got.text);
  assert.equal(got.body.fundsRecovery, r);
  // No second recovery for the same transaction.
  const again = await open(a, { transactionEndToEndId: e2e, situationType: 'OTHER', details: 'de novo' });
  assert.equal([again.status, again.body], [409, { error: 'A funds recovery already exists for this transaction' }]);
});

test('refuses a Pix not sent by the caller, a rejected one and an unknown one', async () => {
  const received = await receive(a, 1_000);
  assert.equal(
    await open(a, { transactionEndToEndId: received, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [400, { error: 'Transaction was not sent from your account' }],
  );
  const unknown = newEndToEndId('99999999', new Date());
  assert.equal(
    await open(a, { transactionEndToEndId: unknown, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [404, { error: 'Transaction not found' }],
  );
  // Another company's Pix is not found either.
  const ofB = await sentPix(b);
  assert.equal(
    await open(a, { transactionEndToEndId: ofB, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [404, { error: 'Transaction not found' }],
  );
  // A payment that FAILED (the receiving side refused it: AC03): the Pix did not go through.
  const failed = await sentPix(a, 'ac03@fail.pixgate.dev', 'FAILED');
  assert.equal(
    await open(a, { transactionEndToEndId: failed, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [400, { error: 'Transaction was rejected' }],
  );
  // ... and of another company, not found.
  assert.equal(
    await open(b, { transactionEndToEndId: failed, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [404, { error: 'Transaction not found' }],
  );
  // Bad input is a 400, never a 500.
  const bad = await open(a, { transactionEndToEndId: 'nope', situationType: 'FRAUD', details: '' });
  assert.is(bad.status, 400, bad.text);
  assert.is(bad.body.error, 'Validation error');
});

test('a payment to another company here can be recovered by its payer, not by its receiver', async () => {
  const paid = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value: 2_500,
      destinationAlias: b.pixKey,
      destinationAliasType: 'RANDOM',
      correlationID: 'med-real',
      autoApprove: true,
    },
    { auth: a.appID },
  );
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.payment.status, 'CONFIRMED', paid.text);
  const e2e = paid.body.transaction.endToEndId;
  const res = await open(a, {
    transactionEndToEndId: e2e,
    situationType: 'ACCOUNT_TAKEOVER',
    details: 'Conta invadida',
  });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.fundsRecovery.rootTransactionId, e2e);
  // B received that Pix (a PIX_IN of the same endToEndId): not B's to recover.
  assert.equal(
    await open(b, { transactionEndToEndId: e2e, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [400, { error: 'Transaction was not sent from your account' }],
  );
});

test('cancel: from CREATED or AWAITING_ANALYSIS; COMPLETED and CANCELLED are terminal (409); events follow each move', async () => {
  const dict = async () =>
    (await open(a, { transactionEndToEndId: await sentPix(a), situationType: 'COERCION', details })).body.fundsRecovery
      .dictId as string;
  const cancel = (id: string, company = a) =>
    server.client.post(`/api/v1/funds-recovery/${id}/cancel`, undefined, { auth: company.appID });
  const advance = (id: string, status: string) =>
    server.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, { status });

  const first = await dict();
  const c1 = await cancel(first);
  assert.is(c1.status, 200, c1.text);
  assert.is(c1.body.fundsRecovery.status, 'CANCELLED');
  assert.equal(
    c1.body.fundsRecovery.events.map((e: { type: string; status: string; description: string }) => [
      e.type,
      e.status,
      e.description,
    ]),
    [['STATUS_CHANGED', 'CANCELLED', 'Cancelled by the reporter']],
  );
  assert.equal(
    [(await cancel(first)).status, (await cancel(first)).body],
    [409, { error: 'Funds recovery is already COMPLETED or CANCELLED' }],
  );
  assert.equal(await advance(first, 'AWAITING_ANALYSIS').then((r) => [r.status, r.body]), [
    409,
    { error: 'Funds recovery is CANCELLED: only a CREATED recovery can move to AWAITING_ANALYSIS' },
  ]);

  const second = await dict();
  assert.equal(await advance(second, 'COMPLETED').then((r) => r.status), 409);
  const awaiting = await advance(second, 'AWAITING_ANALYSIS');
  assert.is(awaiting.status, 200, awaiting.text);
  assert.is(awaiting.body.fundsRecovery.status, 'AWAITING_ANALYSIS');
  const c2 = await cancel(second);
  assert.is(c2.status, 200, c2.text);
  assert.equal(
    c2.body.fundsRecovery.events.map((e: { status: string }) => e.status),
    ['AWAITING_ANALYSIS', 'CANCELLED'],
  );

  const third = await dict();
  await advance(third, 'AWAITING_ANALYSIS');
  const done = await advance(third, 'COMPLETED');
  assert.equal(
    done.body.fundsRecovery.events.map((e: { status: string; description: string }) => [e.status, e.description]),
    [
      ['AWAITING_ANALYSIS', 'Recovery sent to the receiving institution for analysis'],
      [
        'COMPLETED',
        'Analysis completed by the receiving institution: in favour of the payer: the blocked value is returned',
      ],
    ],
  );
  assert.equal(
    [(await cancel(third)).status, (await cancel(third)).body],
    [409, { error: 'Funds recovery is already COMPLETED or CANCELLED' }],
  );
  const got = await server.client.get(`/api/v1/funds-recovery/${third}`, { auth: a.appID });
  assert.equal([got.body.fundsRecovery.status, got.body.fundsRecovery.events.length], ['COMPLETED', 2]);

  // Another company's recovery answers like a missing one.
  assert.equal(await cancel(third, b).then((r) => [r.status, r.body]), [404, { error: 'Funds recovery not found' }]);
  assert.equal(
    await server.client.get(`/api/v1/funds-recovery/${third}`, { auth: b.appID }).then((r) => [r.status, r.body]),
    [404, { error: 'Funds recovery not found' }],
  );
  assert.equal(
    await server.client.get(`/api/v1/funds-recovery/${randomUUID()}`, { auth: a.appID }).then((r) => r.status),
    404,
  );
  assert.equal(await advance(randomUUID(), 'COMPLETED').then((r) => [r.status, r.body]), [
    404,
    { error: 'Funds recovery not found' },
  ]);
});

test('without the MED_API feature every operation answers 403', async () => {
  const noMed = await createCompany(server.client, { name: 'Sem MED', features: ['BAAS'] });
  await receive(noMed, 5_000);
  const e2e = await sentPix(noMed);
  const msg = { error: 'You need feature MED_API to access this endpoint' };
  assert.equal(
    await open(noMed, { transactionEndToEndId: e2e, situationType: 'SCAM', details }).then((r) => [r.status, r.body]),
    [403, msg],
  );
  assert.equal(
    await server.client
      .get(`/api/v1/funds-recovery/${randomUUID()}`, { auth: noMed.appID })
      .then((r) => [r.status, r.body]),
    [403, msg],
  );
  assert.equal(
    await server.client
      .post(`/api/v1/funds-recovery/${randomUUID()}/cancel`, undefined, { auth: noMed.appID })
      .then((r) => [r.status, r.body]),
    [403, msg],
  );
});

test.run();
