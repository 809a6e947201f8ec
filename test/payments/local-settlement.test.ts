// Company A pays company B on this server: B's charge by QR_CODE, B's key, B's static QR
// code, B's account by hand. One money move each (A debited, B credited, nothing created),
// B's charge completed, both transaction lists right, refusals of the receiving side FAILED.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { buildDynamicBrCode } from '../../src/lib/brcode';
import { cents } from '../../src/lib/money';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, approve, balanceOf, fund, pay } from './helpers';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;
let bKey: string;
let bTaxId: string;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Aurora Moda' });
  b = await createCompany(server.client, { name: 'Padaria Estrela' });
  await advanceToLocalHour(server, 10, a, b);
  await fund(server, a.accountId, 1_000_000);
  bKey = (await server.client.get('/api/v1/pix-keys', { auth: b.appID })).body.pixKeys[0].key;
  bTaxId = (await server.client.get('/api/v1/company', { auth: b.appID })).body.company.taxID;
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

async function totals() {
  return { a: (await balanceOf(server, a)).total, b: (await balanceOf(server, b)).total };
}

// Every ledger entry of a payment (its hold and settlement) and of the Pix it became, in the
// order written (one database transaction: hold, the receiver's credit, the payer's debit).
async function movesOf(endToEndId: string) {
  const txs = await server.database.db
    .selectFrom('transactions')
    .select('id')
    .where('end_to_end_id', '=', endToEndId)
    .execute();
  const payment = await server.database.db
    .selectFrom('payments')
    .select('id')
    .where('end_to_end_id', '=', endToEndId)
    .executeTakeFirstOrThrow();
  const rows = await server.database.db
    .selectFrom('ledger_entries')
    .select(['account_id', 'kind', 'amount'])
    .where((eb) =>
      eb.or([
        eb(
          'transaction_id',
          'in',
          txs.map((t) => t.id),
        ),
        eb('move_id', 'like', `payment:${payment.id}:%`),
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ account: r.account_id, kind: r.kind, amount: Number(r.amount) }));
}

async function transactions(company: TestCompany) {
  return (await server.client.get('/api/v1/transaction?limit=100', { auth: company.appID })).body.transactions as Array<
    Record<string, any>
  >;
}

async function newCharge(correlationID: string, value: number): Promise<string> {
  const res = await server.client.post('/api/v1/charge', { correlationID, value }, { auth: b.appID });
  assert.is(res.status, 200, res.text);
  return res.body.charge.brCode;
}

test("A pays B's charge by QR_CODE: the payload is read and verified, B's charge completes, one money move", async () => {
  const brCode = await newCharge('pedido-1', 4_850);
  const before = await totals();
  const created = await pay(server, a, { type: 'QR_CODE', qrCode: brCode, correlationID: 'paga-pedido-1' });
  assert.is(created.status, 200, created.text);
  assert.equal([created.body.payment.status, created.body.payment.value], ['CREATED', 4_850]);
  assert.equal(
    [created.body.destination.name, created.body.destination.taxID, created.body.destination.pixKey],
    ['Padaria Estrela', bTaxId, bKey],
  );
  assert.equal(await totals(), before, 'nothing moves before the approval');
  const paid = await approve(server, a, 'paga-pedido-1');
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.payment.status, 'CONFIRMED');
  const e2e = paid.body.transaction.endToEndId;
  assert.equal(await totals(), { a: before.a - 4_850, b: before.b + 4_850 });
  const charge = (await server.client.get('/api/v1/charge/pedido-1', { auth: b.appID })).body.charge;
  assert.is(charge.status, 'COMPLETED');
  const theirs = (await transactions(b)).find((t) => t.endToEndId === e2e)!;
  assert.ok(theirs, 'B sees the Pix received');
  assert.equal(
    [theirs.type, theirs.value, theirs.charge.correlationID, theirs.payer.name],
    ['PAYMENT', 4_850, 'pedido-1', 'Aurora Moda'],
  );
  const ours = (await transactions(a)).find((t) => t.endToEndId === e2e)!;
  assert.equal([ours.type, ours.value, ours.creditParty.holder.name], ['PIX_OUT', 4_850, 'Padaria Estrela']);
  assert.ok((await listEventsOfCompany(server.database.db, b.companyId, 'OPENPIX:CHARGE_COMPLETED')).length >= 1);
  assert.ok(
    (await listEventsOfCompany(server.database.db, a.companyId, 'OPENPIX:MOVEMENT_CONFIRMED')).some(
      (e) => (e.payload as any).transaction.endToEndId === e2e,
    ),
  );
});

test('a charge already paid cannot be paid again: refused at creation, or FAILED (hold released) when paid meanwhile', async () => {
  const paidCode = (await server.client.get('/api/v1/charge/pedido-1', { auth: b.appID })).body.charge.brCode;
  const again = await pay(server, a, { type: 'QR_CODE', qrCode: paidCode, correlationID: 'paga-de-novo' });
  assert.equal(again.body, { error: "The QR code's charge cannot be paid (status CONCLUIDA)" });
  const brCode = await newCharge('pedido-2', 1_000);
  assert.is((await pay(server, a, { type: 'QR_CODE', qrCode: brCode, correlationID: 'corrida-1' })).status, 200);
  assert.is(
    (await pay(server, a, { type: 'QR_CODE', qrCode: brCode, correlationID: 'corrida-2', autoApprove: true })).body
      .payment.status,
    'CONFIRMED',
  );
  const before = await totals();
  const late = await approve(server, a, 'corrida-1');
  assert.is(late.status, 200, late.text);
  assert.is(late.body.payment.status, 'FAILED');
  assert.ok(
    late.body.transaction.providerRejectedReason.startsWith('DS04: '),
    late.body.transaction.providerRejectedReason,
  );
  assert.equal(await totals(), before);
});

test('the amount of a charge is fixed; an unknown payload location is refused', async () => {
  const brCode = await newCharge('pedido-3', 2_000);
  assert.equal((await pay(server, a, { type: 'QR_CODE', qrCode: brCode, value: 1_999, correlationID: 'menos' })).body, {
    error: 'This QR code has a fixed amount (2000 cents); value may be sent only for QR codes without an amount',
  });
  const host = new URL(server.services.config.publicUrl).host;
  const unknown = buildDynamicBrCode({
    locationUrl: `${host}/qr/v2/00000000-0000-4000-8000-000000000000`,
    merchantName: 'Padaria Estrela',
    merchantCity: 'SAO PAULO',
    amount: cents(2_000),
  });
  const res = await pay(server, a, { type: 'QR_CODE', qrCode: unknown, correlationID: 'forjado' });
  assert.is(res.status, 400);
  assert.ok(res.body.error.startsWith("The QR code's payload could not be used: "), res.text);
});

test("A pays B's key: B is credited, both lists show it", async () => {
  const before = await totals();
  const res = await pay(server, a, {
    type: 'PIX_KEY',
    value: 7_000,
    destinationAlias: bKey,
    destinationAliasType: 'RANDOM',
    correlationID: 'chave-b',
    comment: 'Cafe',
    autoApprove: true,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED');
  assert.equal([res.body.destination.name, res.body.destination.bank], ['Padaria Estrela', 'pixgate sandbox PSP']);
  assert.equal(await totals(), { a: before.a - 7_000, b: before.b + 7_000 });
  const e2e = res.body.transaction.endToEndId;
  const theirs = (await transactions(b)).find((t) => t.endToEndId === e2e)!;
  assert.equal([theirs.type, theirs.value, theirs.infoPagador], ['PAYMENT', 7_000, 'Cafe']);
  assert.equal((await transactions(a)).find((t) => t.endToEndId === e2e)!.type, 'PIX_OUT');
});

test("A pays B's static QR code: its key and txid", async () => {
  const qr = await server.client.post(
    '/api/v1/qrcode-static',
    { name: 'Balcao', correlationID: 'balcao', value: 1_250 },
    { auth: b.appID },
  );
  assert.is(qr.status, 200, qr.text);
  const before = await totals();
  const res = await pay(server, a, {
    type: 'QR_CODE',
    qrCode: qr.body.pixQrCode.brCode,
    correlationID: 'balcao-1',
    autoApprove: true,
  });
  assert.is(res.body.payment.status, 'CONFIRMED', res.text);
  assert.equal(await totals(), { a: before.a - 1_250, b: before.b + 1_250 });
  const theirs = (await transactions(b)).find((t) => t.endToEndId === res.body.transaction.endToEndId)!;
  assert.is(theirs.pixQrCode?.correlationID, 'balcao');
});

test("MANUAL to B's account (our ISPB): credited; a holder tax id that does not match is BE01; an unknown account AC03", async () => {
  const account = (await server.client.get(`/api/v1/account/${b.accountId}`, { auth: b.appID })).body.account;
  const manual = (correlationID: string, taxID: string, number = account.account) => ({
    type: 'MANUAL',
    value: 3_000,
    correlationID,
    holder: { name: 'Padaria Estrela', taxID: { taxID, type: 'BR:CNPJ' } },
    psp: { id: '99999999' },
    account: { branch: '1', account: number, accountType: 'TRAN' },
    autoApprove: true,
  });
  const before = await totals();
  const ok = await pay(server, a, manual('conta-b', bTaxId));
  assert.is(ok.body.payment.status, 'CONFIRMED', ok.text);
  assert.equal(await totals(), { a: before.a - 3_000, b: before.b + 3_000 });
  // Addressed to the account itself, not through one of B's keys: one money move (A's hold
  // debited, B's account credited), and B sees a Pix without a key.
  const e2e = ok.body.transaction.endToEndId;
  const theirs = (await transactions(b)).find((t) => t.endToEndId === e2e)!;
  assert.equal(
    [theirs.type, theirs.value, theirs.payer.name, theirs.pixKey],
    ['PAYMENT', 3_000, 'Aurora Moda', undefined],
  );
  // Through the rail: in from @outside to B, then A's hold and its settlement out to @outside
  // (written together once the rail answered; @outside nets zero).
  assert.equal(await movesOf(e2e), [
    { account: b.accountId, kind: 'CREDIT', amount: 3_000 },
    { account: '@outside', kind: 'DEBIT', amount: 3_000 },
    { account: a.accountId, kind: 'HOLD', amount: 3_000 },
    { account: a.accountId, kind: 'DEBIT', amount: 3_000 },
    { account: '@outside', kind: 'CREDIT', amount: 3_000 },
  ]);
  const received = await server.database.db
    .selectFrom('pix_received')
    .select(['account_id', 'pix_key', 'charge_id'])
    .where('end_to_end_id', '=', e2e)
    .executeTakeFirstOrThrow();
  assert.equal(received, { account_id: b.accountId, pix_key: '', charge_id: null });
  const be01 = await pay(server, a, manual('conta-b-errada', '11222333000181'));
  assert.is(be01.body.payment.status, 'FAILED');
  assert.ok(be01.body.transaction.providerRejectedReason.startsWith('BE01: '));
  const ac03 = await pay(server, a, manual('conta-inexistente', bTaxId, '12'));
  assert.is(ac03.body.payment.status, 'FAILED');
  assert.ok(ac03.body.transaction.providerRejectedReason.startsWith('AC03: '));
  assert.equal(await totals(), { a: before.a - 3_000, b: before.b + 3_000 });
});

test("MANUAL to B's second account, which has no Pix key: that account is credited, not B's default one", async () => {
  const second = await server.client.post('/api/v1/account', undefined, { auth: b.appID });
  assert.is(second.status, 200, second.text);
  const { accountId, branch, account } = second.body.account;
  const keys = (await server.client.get('/api/v1/pix-keys', { auth: b.appID })).body.pixKeys as Array<{ key: string }>;
  assert.ok(keys.length >= 1, 'B has keys, but none on its second account');
  const before = { ...(await totals()), second: (await balanceOf(server, b, accountId)).total };
  const res = await pay(server, a, {
    type: 'MANUAL',
    value: 1_500,
    correlationID: 'conta-b-segunda',
    holder: { name: 'Padaria Estrela', taxID: { taxID: bTaxId, type: 'BR:CNPJ' } },
    psp: { id: '99999999' },
    account: { branch, account, accountType: 'TRAN' },
    autoApprove: true,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED', res.text);
  assert.equal([res.body.destination.account, res.body.destination.name], [account, 'Padaria Estrela']);
  const after = { ...(await totals()), second: (await balanceOf(server, b, accountId)).total };
  assert.equal(after, { a: before.a - 1_500, b: before.b, second: before.second + 1_500 });
  const e2e = res.body.transaction.endToEndId;
  assert.equal(await movesOf(e2e), [
    { account: accountId, kind: 'CREDIT', amount: 1_500 },
    { account: '@outside', kind: 'DEBIT', amount: 1_500 },
    { account: a.accountId, kind: 'HOLD', amount: 1_500 },
    { account: a.accountId, kind: 'DEBIT', amount: 1_500 },
    { account: '@outside', kind: 'CREDIT', amount: 1_500 },
  ]);
  const theirs = (await transactions(b)).find((t) => t.endToEndId === e2e)!;
  assert.equal([theirs.type, theirs.value], ['PAYMENT', 1_500]);
});

test('money is neither created nor lost across both companies', async () => {
  const sent = (await transactions(a)).filter((t) => t.type === 'PIX_OUT').reduce((sum, t) => sum + t.value, 0);
  const received = (await transactions(b)).filter((t) => t.type === 'PAYMENT').reduce((sum, t) => sum + t.value, 0);
  assert.is(sent, received);
  const accounts = (await server.client.get('/api/v1/account', { auth: b.appID })).body.accounts as Array<{
    balance: { total: number };
  }>;
  assert.equal(
    [(await balanceOf(server, a)).total, accounts.reduce((sum, x) => sum + x.balance.total, 0)],
    [1_000_000 - sent, received],
  );
});

test.run();
