// The money of a funds recovery (MED): the receiving account's block during the analysis
// (blockedBySecurity, never more than its available balance), the return through the rail in
// favour of the payer (a devolution with natureza MED_FRAUDE: REFUND_OUT / REFUND_IN, the
// statement, the refund events), the release when the analysis disagrees or the reporter
// cancels, a Pix refunded in part before or during the analysis, and a Pix received by
// another institution. Every Pix is real, so the money-out audit holds after the file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { auditMoneyOut } from '../support/ledger-auditor';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let payer: TestCompany;
let receiver: TestCompany;
let stranger: TestCompany;
let sent = 0;

const OUTSIDE_KEY = 'fornecedor@tecidosbrasil.com.br';
const details = 'Pagamento feito a um falso vendedor.';

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  payer = await createCompany(server.client, { name: 'Loja Aurora' });
  receiver = await createCompany(server.client, { name: 'Loja Boreal' });
  stranger = await createCompany(server.client, { name: 'Loja Cometa' });
  for (const company of [payer, receiver, stranger]) {
    const res = await server.client.post('/api/v1/sandbox/pix-in', {
      pixKey: company.pixKey,
      value: 100_000,
      payer: { name: 'Joao Pedro Martins', taxID: '26801573110' },
    });
    assert.is(res.status, 200, res.text);
  }
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

async function pay(from: TestCompany, value: number, key: string, keyType = 'RANDOM'): Promise<string> {
  const res = await server.client.post(
    '/api/v1/payment',
    {
      type: 'PIX_KEY',
      value,
      destinationAlias: key,
      destinationAliasType: keyType,
      correlationID: `med-money-${++sent}`,
      autoApprove: true,
    },
    { auth: from.appID },
  );
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED', res.text);
  return res.body.transaction.endToEndId;
}

async function balance(company: TestCompany) {
  const res = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  const { total, available, blockedBySecurity } = res.body.account.balance;
  return { total, available, blockedBySecurity };
}

async function openRecovery(e2e: string): Promise<string> {
  const res = await server.client.post(
    '/api/v1/funds-recovery',
    { transactionEndToEndId: e2e, situationType: 'SCAM', details },
    { auth: payer.appID },
  );
  assert.is(res.status, 201, res.text);
  return res.body.fundsRecovery.dictId;
}

async function advance(id: string, body: Record<string, unknown>) {
  const res = await server.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, body);
  assert.is(res.status, 200, res.text);
  return res.body.fundsRecovery;
}

const settleRail = () => server.services.jobs.runNow('pixin.devolutions');

async function transactionsOf(company: TestCompany, type: string) {
  const res = await server.client.get(`/api/v1/transaction?type=${type}`, { auth: company.appID });
  assert.is(res.status, 200, res.text);
  return res.body.transactions as Array<{ value: number; endToEndId?: string; globalID: string }>;
}

async function eventsOf(company: TestCompany, type: string) {
  return listEventsOfCompany(server.database.db, company.companyId, type);
}

test('AGREED: blocked on the receiving account while analysed, then returned through the rail as MED_FRAUDE', async () => {
  const e2e = await pay(payer, 2_500, receiver.pixKey);
  const before = { payer: await balance(payer), receiver: await balance(receiver) };
  const id = await openRecovery(e2e);
  // Opening moves no money.
  assert.equal(await balance(receiver), before.receiver);

  const analysed = await advance(id, { status: 'AWAITING_ANALYSIS' });
  assert.equal([analysed.value, analysed.blockedValue, analysed.recoveredValue], [2_500, 2_500, 0]);
  assert.equal(await balance(receiver), {
    total: before.receiver.total,
    available: before.receiver.available - 2_500,
    blockedBySecurity: 2_500,
  });
  // The receiving company reads it as RECEIVED; a third company does not see it.
  const seen = await server.client.get(`/api/v1/funds-recovery/${id}`, { auth: receiver.appID });
  assert.equal([seen.status, seen.body.fundsRecovery.direction], [200, 'RECEIVED']);
  const hidden = await server.client.get(`/api/v1/funds-recovery/${id}`, { auth: stranger.appID });
  assert.equal([hidden.status, hidden.body], [404, { error: 'Funds recovery not found' }]);
  // ... and cannot cancel it.
  const cancel = await server.client.post(`/api/v1/funds-recovery/${id}/cancel`, undefined, { auth: receiver.appID });
  assert.is(cancel.status, 404);

  const done = await advance(id, { status: 'COMPLETED' });
  assert.equal([done.status, done.analysisResult, done.recoveredValue], ['COMPLETED', 'AGREED', 2_500]);
  assert.match(done.returnIdentification, /^D99999999\d{12}[a-zA-Z0-9]{11}$/);
  // The block became a devolution waiting for the rail: still not available to the receiver.
  assert.equal(await balance(receiver), {
    total: before.receiver.total,
    available: before.receiver.available - 2_500,
    blockedBySecurity: 0,
  });
  await settleRail();
  assert.equal((await balance(receiver)).total, before.receiver.total - 2_500);
  assert.equal(await balance(payer), {
    ...before.payer,
    total: before.payer.total + 2_500,
    available: before.payer.available + 2_500,
  });

  // Transactions, statement and events on both sides.
  const out = (await transactionsOf(receiver, 'REFUND')).find((t) => t.endToEndId === done.returnIdentification);
  const back = (await transactionsOf(payer, 'REVERSAL')).find((t) => t.endToEndId === done.returnIdentification);
  assert.equal([out?.value, back?.value], [2_500, 2_500]);
  const statement = await server.client.get('/api/v1/statement', { auth: payer.appID });
  const line = statement.body.find((l: { transactionId?: string }) => l.transactionId === back!.globalID);
  assert.equal([line?.type, line?.value], ['CREDIT', 2_500]);
  const sentEvent = (await eventsOf(receiver, 'PIX_TRANSACTION_REFUND_SENT_CONFIRMED')).find(
    (e) => (e.payload as { refund: { endToEndId: string } }).refund.endToEndId === done.returnIdentification,
  );
  assert.ok(sentEvent, 'the receiver hears of the return it sent');
  const received = (await eventsOf(payer, 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED')).map(
    (e) => e.payload as { refund: { endToEndId: string; natureza: string; value: number } },
  );
  assert.equal(
    received
      .filter((p) => p.refund.endToEndId === done.returnIdentification)
      .map((p) => [p.refund.natureza, p.refund.value]),
    [['MED_FRAUDE', 2_500]],
  );
  // The Pix API shows the return among the Pix's devolutions, with its MED nature.
  const devolutions = await server.database.db
    .selectFrom('pix_devolutions')
    .select(['natureza', 'status', 'value'])
    .where('end_to_end_id', '=', e2e)
    .execute();
  assert.equal(devolutions, [{ natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', value: 2_500 }]);
  // Completed is terminal: nothing moves twice.
  const again = await server.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, { status: 'COMPLETED' });
  assert.is(again.status, 409);
});

test('money already spent: only what is available is blocked (never below zero); the return is that part', async () => {
  const poor = await createCompany(server.client, { name: 'Loja Dunas' });
  const e2e = await pay(payer, 3_000, poor.pixKey);
  // The receiver spends all but 1_200 of it before the analysis.
  await pay(poor, 1_800, OUTSIDE_KEY, 'EMAIL');
  const id = await openRecovery(e2e);
  const analysed = await advance(id, { status: 'AWAITING_ANALYSIS' });
  assert.equal([analysed.value, analysed.blockedValue], [3_000, 1_200]);
  assert.equal(await balance(poor), { total: 1_200, available: 0, blockedBySecurity: 1_200 });
  // Money arriving later is free: the block does not grow.
  const later = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: poor.pixKey,
    value: 500,
    payer: { name: 'Joao Pedro Martins', taxID: '26801573110' },
  });
  assert.is(later.status, 200, later.text);
  assert.equal(await balance(poor), { total: 1_700, available: 500, blockedBySecurity: 1_200 });
  const done = await advance(id, { status: 'COMPLETED', analysisResult: 'AGREED' });
  assert.equal([done.recoveredValue, done.blockedValue], [1_200, 1_200]);
  await settleRail();
  assert.equal(await balance(poor), { total: 500, available: 500, blockedBySecurity: 0 });
});

test('a Pix refunded in part is recovered for the rest; refunded in full is refused', async () => {
  const e2e = await pay(payer, 4_000, receiver.pixKey);
  const refund = (value: number, correlationID: string) =>
    server.client.post(
      '/api/v1/refund',
      { transactionEndToEndId: e2e, value, correlationID },
      { auth: receiver.appID },
    );
  assert.is((await refund(1_000, 'med-partial-1')).status, 200);
  await settleRail();
  const id = await openRecovery(e2e);
  const opened = await server.client.get(`/api/v1/funds-recovery/${id}`, { auth: payer.appID });
  assert.is(opened.body.fundsRecovery.value, 3_000);
  const analysed = await advance(id, { status: 'AWAITING_ANALYSIS' });
  assert.is(analysed.blockedValue, 3_000);
  // The receiver refunds another part during the analysis: the return is capped at what is
  // still refundable and the rest of the block released.
  assert.is((await refund(500, 'med-partial-2')).status, 200);
  const before = await balance(receiver);
  const done = await advance(id, { status: 'COMPLETED' });
  assert.equal([done.blockedValue, done.recoveredValue], [3_000, 2_500]);
  assert.equal(await balance(receiver), {
    total: before.total,
    available: before.available + 500,
    blockedBySecurity: before.blockedBySecurity - 3_000,
  });
  await settleRail();

  const full = await pay(payer, 700, receiver.pixKey);
  const res = await server.client.post(
    '/api/v1/refund',
    { transactionEndToEndId: full, correlationID: 'med-full' },
    { auth: receiver.appID },
  );
  assert.is(res.status, 200, res.text);
  const refused = await server.client.post(
    '/api/v1/funds-recovery',
    { transactionEndToEndId: full, situationType: 'SCAM', details },
    { auth: payer.appID },
  );
  assert.equal([refused.status, refused.body], [400, { error: 'Transaction was already refunded in full' }]);
  await settleRail();
});

test('DISAGREED releases the block; cancelling while blocked releases it too; nothing is returned', async () => {
  for (const end of ['DISAGREED', 'CANCEL'] as const) {
    const e2e = await pay(payer, 1_500, receiver.pixKey);
    const id = await openRecovery(e2e);
    const before = await balance(receiver);
    await advance(id, { status: 'AWAITING_ANALYSIS' });
    assert.is((await balance(receiver)).blockedBySecurity, before.blockedBySecurity + 1_500);
    let recovery;
    if (end === 'DISAGREED') {
      recovery = await advance(id, { status: 'COMPLETED', analysisResult: 'DISAGREED' });
      assert.equal([recovery.status, recovery.analysisResult, recovery.recoveredValue], ['COMPLETED', 'DISAGREED', 0]);
    } else {
      const res = await server.client.post(`/api/v1/funds-recovery/${id}/cancel`, undefined, { auth: payer.appID });
      assert.is(res.status, 200, res.text);
      recovery = res.body.fundsRecovery;
      assert.is(recovery.status, 'CANCELLED');
    }
    assert.is(recovery.returnIdentification, undefined);
    assert.equal(await balance(receiver), before);
    await settleRail();
    assert.equal(await balance(receiver), before);
  }
  // analysisResult belongs to the completion only.
  const id = await openRecovery(await pay(payer, 100, receiver.pixKey));
  const bad = await server.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, {
    status: 'AWAITING_ANALYSIS',
    analysisResult: 'AGREED',
  });
  assert.equal([bad.status, bad.body.error], [400, 'analysisResult is only given with status COMPLETED']);
});

test('a Pix received by another institution: blocked there, returned at once as a REFUND_IN', async () => {
  const e2e = await pay(payer, 990, OUTSIDE_KEY, 'EMAIL');
  const before = await balance(payer);
  const id = await openRecovery(e2e);
  const analysed = await advance(id, { status: 'AWAITING_ANALYSIS' });
  assert.equal([analysed.value, analysed.blockedValue], [990, 990]);
  assert.equal(await balance(payer), before);
  const done = await advance(id, { status: 'COMPLETED' });
  assert.equal([done.recoveredValue, done.analysisResult], [990, 'AGREED']);
  assert.equal(await balance(payer), { ...before, total: before.total + 990, available: before.available + 990 });
  const back = (await transactionsOf(payer, 'REVERSAL')).find((t) => t.endToEndId === done.returnIdentification);
  assert.is(back?.value, 990);
  const events = (await eventsOf(payer, 'PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED')).filter(
    (e) => (e.payload as { refund: { endToEndId: string } }).refund.endToEndId === done.returnIdentification,
  );
  assert.is(events.length, 1);
});

test.run();
