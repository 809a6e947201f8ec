// Outgoing payments: create (PIX_KEY, QR_CODE, MANUAL, BOLETO), approve, autoApprove, the
// correlationID rules, refusals that change nothing, reads, events, and the ledger trail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { buildStaticBrCode } from '../../src/lib/brcode';
import { cents } from '../../src/lib/money';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceCompanyClock, advanceToLocalHour, approve, balanceOf, fund, OUTSIDE_KEY, pay } from './helpers';

let server: TestServer;
let a: TestCompany;
let other: TestCompany;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client);
  other = await createCompany(server.client);
  await advanceToLocalHour(server, 10, a, other);
  await fund(server, a.accountId, 1_000_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const keyPayment = (correlationID: string, extra: Record<string, unknown> = {}) => ({
  type: 'PIX_KEY',
  value: 25_000,
  destinationAlias: OUTSIDE_KEY,
  destinationAliasType: 'EMAIL',
  correlationID,
  ...extra,
});

async function entriesOf(accountId: string, moveIdPrefix: string) {
  return server.database.db
    .selectFrom('ledger_entries')
    .select(['kind', 'bucket', 'amount'])
    .where('account_id', '=', accountId)
    .where('move_id', 'like', `${moveIdPrefix}%`)
    .orderBy('id')
    .execute();
}

test('a PIX_KEY payment is CREATED with its destination from a key lookup, and nothing is debited', async () => {
  const before = await balanceOf(server, a);
  const res = await pay(
    server,
    a,
    keyPayment('pk-1', { comment: 'NF 45821', metadata: { notaFiscal: '45821', centro: 7, urgente: true } }),
  );
  assert.is(res.status, 200, res.text);
  const { payment, destination, transaction } = res.body;
  assert.is(payment.status, 'CREATED');
  assert.is(payment.type, 'PIX_KEY');
  assert.is(payment.value, 25_000);
  assert.is(payment.destinationAlias, OUTSIDE_KEY);
  assert.is(payment.destinationAliasType, 'EMAIL');
  assert.is(payment.comment, 'NF 45821');
  assert.equal(payment.metadata, { notaFiscal: '45821', centro: 7, urgente: true });
  assert.is(payment.sourceAccountId, a.accountId);
  assert.ok(/^pay_[0-9a-f]{32}$/.test(payment.id));
  assert.is(transaction, undefined);
  const owner = (
    await server.client.get(`/api/v1/pix-keys/${encodeURIComponent(OUTSIDE_KEY)}/check`, { auth: a.appID })
  ).body.owner;
  assert.equal(destination, {
    name: owner.name,
    taxID: owner.taxID,
    pixKey: OUTSIDE_KEY,
    bank: owner.psp,
    branch: owner.branch,
    account: owner.account,
  });
  assert.equal(await balanceOf(server, a), before);
  const logs = (await server.client.get('/api/v1/pix-keys/tokens/logs', { auth: a.appID })).body.logs;
  assert.ok(
    logs.some((l: { reason: string; pixKey: string }) => l.reason === 'payment' && l.pixKey === OUTSIDE_KEY),
    'the payment looked the key up',
  );
});

test('approving holds, sends and settles: CONFIRMED, debited once, a PIX_OUT transaction and a MOVEMENT_CONFIRMED event', async () => {
  const before = await balanceOf(server, a);
  const res = await approve(server, a, 'pk-1');
  assert.is(res.status, 200, res.text);
  const { payment, transaction } = res.body;
  assert.is(payment.status, 'CONFIRMED');
  assert.is(transaction.value, 25_000);
  assert.ok(/^E99999999\d{12}[A-Za-z0-9]{11}$/.test(transaction.endToEndId));
  assert.is(
    transaction.debitParty.account.account,
    (await server.client.get(`/api/v1/account/${a.accountId}`, { auth: a.appID })).body.account.account,
  );
  assert.is(transaction.creditParty.pixKey.pixKey, OUTSIDE_KEY);
  assert.equal(await balanceOf(server, a), {
    ...before,
    total: before.total - 25_000,
    available: before.available - 25_000,
  });
  assert.equal(
    (await entriesOf(a.accountId, `payment:${payment.id}`)).map((e) => [e.kind, e.bucket, Number(e.amount)]),
    [
      ['HOLD', 'blocked', 25_000],
      ['DEBIT', 'blocked', 25_000],
    ],
  );
  const tx = await server.client.get(`/api/v1/transaction/${transaction.endToEndId}`, { auth: a.appID });
  assert.is(tx.status, 200, tx.text);
  assert.is(tx.body.transaction.value, 25_000);
  const events = await listEventsOfCompany(server.database.db, a.companyId, 'OPENPIX:MOVEMENT_CONFIRMED');
  const event = events.find(
    (e) => (e.payload as { payment: { correlationID: string } }).payment.correlationID === 'pk-1',
  );
  assert.ok(event, 'MOVEMENT_CONFIRMED recorded');
  assert.is((event!.payload as { transaction: { endToEndId: string } }).transaction.endToEndId, transaction.endToEndId);
  assert.is((event!.payload as { payment: { status: string } }).payment.status, 'CONFIRMED');
});

test("approving again answers 409; an unknown or another company's payment is 404", async () => {
  const again = await approve(server, a, 'pk-1');
  assert.is(again.status, 409);
  assert.is(again.body.error, 'Payment is not awaiting approval: its status is CONFIRMED');
  assert.is((await approve(server, a, 'nope')).status, 404);
  assert.equal((await approve(server, other, 'pk-1')).body, { error: 'Payment not found' });
  assert.equal((await server.client.get('/api/v1/payment/pk-1', { auth: other.appID })).body, {
    error: 'Payment not found',
  });
});

test('autoApprove creates and approves in one call', async () => {
  const before = await balanceOf(server, a);
  const res = await pay(server, a, keyPayment('pk-auto', { value: 12_345, autoApprove: true }));
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED');
  assert.is(res.body.transaction.value, 12_345);
  assert.is((await balanceOf(server, a)).total, before.total - 12_345);
});

test('the same correlationID with the same body answers the existing payment; with another body, 400', async () => {
  const first = await pay(server, a, keyPayment('pk-dup', { comment: 'x', metadata: { b: 1, a: 2 } }));
  assert.is(first.status, 200, first.text);
  const reordered = {
    metadata: { a: 2, b: 1 },
    comment: 'x',
    correlationID: 'pk-dup',
    destinationAliasType: 'EMAIL',
    destinationAlias: OUTSIDE_KEY,
    value: 25_000,
    type: 'PIX_KEY',
    autoApprove: false,
  };
  const again = await pay(server, a, reordered);
  assert.is(again.status, 200, again.text);
  assert.is(again.body.payment.id, first.body.payment.id);
  const changed = await pay(server, a, keyPayment('pk-dup', { comment: 'x', metadata: { b: 1, a: 2 }, value: 25_001 }));
  assert.is(changed.status, 400);
  assert.is(changed.body.error, 'Payment with this correlationID already exists with a different body');
  // Another company may use the same correlationID.
  await fund(server, other.accountId, 30_000);
  assert.is((await pay(server, other, keyPayment('pk-dup', { comment: 'x', metadata: { b: 1, a: 2 } }))).status, 200);
});

test('a balance that does not cover the payment: approve answers 400 and the payment stays CREATED; with autoApprove nothing is stored', async () => {
  const poor = await createCompany(server.client);
  await fund(server, poor.accountId, 1_000);
  assert.is((await pay(server, poor, keyPayment('poor-1', { value: 1_001 }))).status, 200);
  const refused = await approve(server, poor, 'poor-1');
  assert.is(refused.status, 400);
  assert.is(refused.body.error, 'Account does not have enough balance to complete the operation');
  assert.is((await server.client.get('/api/v1/payment/poor-1', { auth: poor.appID })).body.payment.status, 'CREATED');
  assert.equal(await balanceOf(server, poor), {
    total: 1_000,
    blocked: 0,
    available: 1_000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  } as never);
  const auto = await pay(server, poor, keyPayment('poor-2', { value: 5_000, autoApprove: true }));
  assert.is(auto.status, 400);
  assert.is(auto.body.error, 'Account does not have enough balance to complete the operation');
  assert.is((await server.client.get('/api/v1/payment/poor-2', { auth: poor.appID })).status, 404);
  await fund(server, poor.accountId, 4_000);
  const retried = await pay(server, poor, keyPayment('poor-2', { value: 5_000, autoApprove: true }));
  assert.is(retried.status, 200, retried.text);
  assert.is(retried.body.payment.status, 'CONFIRMED');
  assert.is((await balanceOf(server, poor)).total, 0);
});

test('refused input: a key not valid for its type, too many metadata keys, a long comment, unknown fields, zero value', async () => {
  const badKey = await pay(
    server,
    a,
    keyPayment('bad-1', { destinationAlias: 'not-an-email', destinationAliasType: 'EMAIL' }),
  );
  assert.equal(badKey.body, {
    error: 'Validation error',
    details: [{ field: 'body.destinationAlias', message: 'pixKey is not a valid EMAIL key' }],
  });
  const cpfAsPhone = await pay(
    server,
    a,
    keyPayment('bad-2', { destinationAlias: '52998224725', destinationAliasType: 'PHONE' }),
  );
  assert.is(cpfAsPhone.status, 400);
  const metadata = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 'v']));
  const tooMany = await pay(server, a, keyPayment('bad-3', { metadata }));
  assert.equal(tooMany.body, {
    error: 'Validation error',
    details: [{ field: 'body.metadata', message: 'must NOT have more than 30 properties' }],
  });
  assert.is(
    (await pay(server, a, keyPayment('ok-30', { metadata: Object.fromEntries(Object.entries(metadata).slice(0, 30)) })))
      .status,
    200,
  );
  assert.is((await pay(server, a, keyPayment('bad-4', { comment: 'x'.repeat(141) }))).status, 400);
  assert.is((await pay(server, a, keyPayment('bad-5', { surprise: 1 }))).status, 400);
  assert.is((await pay(server, a, keyPayment('bad-6', { value: 0 }))).status, 400);
  assert.is(
    (
      await pay(server, a, {
        type: 'PIX_KEY',
        value: 100,
        destinationAlias: OUTSIDE_KEY,
        destinationAliasType: 'EMAIL',
      })
    ).status,
    400,
  );
  for (const id of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'bad-6'])
    assert.is((await server.client.get(`/api/v1/payment/${id}`, { auth: a.appID })).status, 404);
});

test("pixKeyEndToEndId: the lookup's end-to-end id is the payment's, spent once; another key's or an unknown one is refused", async () => {
  const check = await server.client.post('/api/v1/pix-keys/check', { pixKey: '+5511987654321' }, { auth: a.appID });
  assert.is(check.status, 200, check.text);
  const tokensBefore = (await server.client.get('/api/v1/pix-keys/tokens', { auth: a.appID })).body.tokens;
  const body = {
    type: 'PIX_KEY',
    value: 700,
    destinationAlias: '+5511987654321',
    destinationAliasType: 'PHONE',
    pixKeyEndToEndId: check.body.pixKeyEndToEndId,
    autoApprove: true,
  };
  const paid = await pay(server, a, { ...body, correlationID: 'e2e-1' });
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.transaction.endToEndId, check.body.pixKeyEndToEndId);
  assert.is(paid.body.destination.name, check.body.owner.name);
  assert.is(
    (await server.client.get('/api/v1/pix-keys/tokens', { auth: a.appID })).body.tokens,
    tokensBefore,
    'no new lookup',
  );
  assert.equal((await pay(server, a, { ...body, correlationID: 'e2e-2' })).body, {
    error: 'pixKeyEndToEndId was already used by another payment',
  });
  assert.equal((await pay(server, a, { ...body, destinationAlias: '+5511987654322', correlationID: 'e2e-3' })).body, {
    error: 'pixKeyEndToEndId comes from a lookup of another key',
  });
  assert.equal(
    (await pay(server, a, { ...body, pixKeyEndToEndId: 'E99999999202601011200abcdefghijk', correlationID: 'e2e-4' }))
      .body,
    {
      error: 'pixKeyEndToEndId is not the end-to-end id of a key lookup of this company',
    },
  );
  // Another company cannot use this company's lookup.
  const theirs = await pay(server, other, { ...body, correlationID: 'e2e-5' });
  assert.is(theirs.status, 400);
});

test('a key the DICT does not know is refused at creation (400 Pix key not found)', async () => {
  const res = await pay(server, a, keyPayment('nf-1', { destinationAlias: 'someone@notfound.pixgate.dev' }));
  assert.equal(res.body, { error: 'Pix key not found' });
  assert.is(res.status, 400);
});

test('QR_CODE: a static code pays its key with its amount; value may only fill a code without one', async () => {
  const withAmount = buildStaticBrCode({
    pixKey: OUTSIDE_KEY,
    merchantName: 'Tecidos Brasil',
    merchantCity: 'SAO PAULO',
    amount: cents(3_210),
    txid: 'PEDIDO42',
  });
  const res = await pay(server, a, { type: 'QR_CODE', qrCode: withAmount, correlationID: 'qr-1', autoApprove: true });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.value, 3_210);
  assert.is(res.body.payment.qrCode, withAmount);
  assert.is(res.body.payment.status, 'CONFIRMED');
  assert.is(res.body.destination.pixKey, OUTSIDE_KEY);
  const override = await pay(server, a, { type: 'QR_CODE', qrCode: withAmount, value: 100, correlationID: 'qr-2' });
  assert.equal(override.body, {
    error: 'This QR code has a fixed amount (3210 cents); value may be sent only for QR codes without an amount',
  });
  assert.is(
    (await pay(server, a, { type: 'QR_CODE', qrCode: withAmount, value: 3_210, correlationID: 'qr-3' })).status,
    200,
  );
  const open = buildStaticBrCode({ pixKey: OUTSIDE_KEY, merchantName: 'Tecidos Brasil', merchantCity: 'SAO PAULO' });
  const missing = await pay(server, a, { type: 'QR_CODE', qrCode: open, correlationID: 'qr-4' });
  assert.equal(missing.body, {
    error: 'Validation error',
    details: [{ field: 'body.value', message: 'is required to pay a QR code without an amount' }],
  });
  const filled = await pay(server, a, { type: 'QR_CODE', qrCode: open, value: 999, correlationID: 'qr-5' });
  assert.is(filled.body.payment.value, 999);
});

test('QR_CODE: a broken code is refused; a dynamic code of another host is paid to the outside world with its amount', async () => {
  const broken = await pay(server, a, {
    type: 'QR_CODE',
    qrCode: '00020101021226580014br.gov.bcb.pix0136' + 'x'.repeat(30),
    correlationID: 'qr-bad',
  });
  assert.is(broken.status, 400);
  assert.ok(broken.body.error.startsWith('Invalid QR code: '), broken.text);
  const crc =
    buildStaticBrCode({ pixKey: OUTSIDE_KEY, merchantName: 'X', merchantCity: 'Y', amount: cents(100) }).slice(0, -4) +
    '0000';
  assert.equal((await pay(server, a, { type: 'QR_CODE', qrCode: crc, correlationID: 'qr-crc' })).body, {
    error: 'Invalid QR code: CRC does not match',
  });
  const foreign =
    '00020101021226860014br.gov.bcb.pix2564qr.padariaestrela.com.br/pix/v2/7c1e9a3b5d2f4a6c8e0b1d3f5a7c9e2b520400005303986540548.505802BR5920PADARIA ESTRELA LTDA6008CAMPINAS62070503***63041413';
  const res = await pay(server, a, {
    type: 'QR_CODE',
    qrCode: foreign,
    correlationID: 'qr-foreign',
    autoApprove: true,
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.value, 4_850);
  assert.is(res.body.payment.status, 'CONFIRMED');
  assert.is(res.body.destination.name, 'PADARIA ESTRELA LTDA');
});

test('type may be left out, as existing clients send: destinationAlias means PIX_KEY, qrCode means QR_CODE', async () => {
  const { type: _type, ...untyped } = keyPayment('untyped-key');
  const byKey = await pay(server, a, untyped);
  assert.is(byKey.status, 200, byKey.text);
  assert.is(byKey.body.payment.type, 'PIX_KEY');
  // The same request with its type spelt out is the same request.
  const again = await pay(server, a, keyPayment('untyped-key'));
  assert.is(again.status, 200, again.text);
  assert.is(again.body.payment.id, byKey.body.payment.id);

  const qrCode = buildStaticBrCode({
    pixKey: OUTSIDE_KEY,
    merchantName: 'Tecidos Brasil',
    merchantCity: 'SAO PAULO',
    amount: cents(1_234),
  });
  const byCode = await pay(server, a, { qrCode, correlationID: 'untyped-qr', comment: 'pagando' });
  assert.is(byCode.status, 200, byCode.text);
  assert.is(byCode.body.payment.type, 'QR_CODE');
  assert.is(byCode.body.payment.value, 1_234);

  // MANUAL and BOLETO bodies still say what they are.
  const boleto = await pay(server, a, {
    boletoBarcode: '23793381286000782713695000063305975520000370000',
    correlationID: 'untyped-boleto',
  });
  assert.is(boleto.status, 400);
  const neither = await pay(server, a, { value: 100, correlationID: 'untyped-nothing' });
  assert.is(neither.status, 400);
  assert.is(neither.body.error, 'Validation error');
});

test('MANUAL: an outside account is paid as given; a tax id that is not valid or not of its type is refused', async () => {
  const body = {
    type: 'MANUAL',
    value: 18_000,
    correlationID: 'man-1',
    holder: { name: 'Imobiliaria Central Ltda', taxID: { taxID: '27.456.189/0001-88', type: 'BR:CNPJ' } },
    psp: { id: '00000000', name: 'BCO DO BRASIL S.A.' },
    account: { branch: '1234', account: '56789-0', accountType: 'CACC' },
    autoApprove: true,
  };
  const res = await pay(server, a, body);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED');
  assert.equal(res.body.payment.holder, {
    name: 'Imobiliaria Central Ltda',
    taxID: { taxID: '27456189000188', type: 'BR:CNPJ' },
  });
  assert.equal(res.body.payment.account, { branch: '1234', account: '56789-0', accountType: 'CACC' });
  assert.equal(res.body.destination, {
    name: 'Imobiliaria Central Ltda',
    taxID: '27456189000188',
    bank: 'BCO DO BRASIL S.A.',
    branch: '1234',
    account: '56789-0',
  });
  assert.equal(res.body.transaction.creditParty.psp, { id: '00000000', name: 'BCO DO BRASIL S.A.' });
  const badTax = await pay(server, a, {
    ...body,
    correlationID: 'man-2',
    holder: { name: 'X', taxID: { taxID: '27456189000100', type: 'BR:CNPJ' } },
  });
  assert.is(badTax.status, 400);
  assert.is(badTax.body.details[0].field, 'body.holder.taxID.taxID');
  const wrongType = await pay(server, a, {
    ...body,
    correlationID: 'man-3',
    holder: { name: 'X', taxID: { taxID: '52998224725', type: 'BR:CNPJ' } },
  });
  assert.equal(wrongType.body.details, [{ field: 'body.holder.taxID.taxID', message: 'is not a CNPJ' }]);
  const badIspb = await pay(server, a, { ...body, correlationID: 'man-4', psp: { id: '123' } });
  assert.is(badIspb.status, 400);
});

test('get by id, correlationID or endToEndId; list pages newest first', async () => {
  const byCorrelation = await server.client.get('/api/v1/payment/pk-1', { auth: a.appID });
  assert.is(byCorrelation.status, 200);
  const { payment, transaction } = byCorrelation.body;
  assert.equal((await server.client.get(`/api/v1/payment/${payment.id}`, { auth: a.appID })).body, byCorrelation.body);
  assert.equal(
    (await server.client.get(`/api/v1/payment/${transaction.endToEndId}`, { auth: a.appID })).body,
    byCorrelation.body,
  );
  const first = await server.client.get('/api/v1/payment?limit=2', { auth: a.appID });
  const all = await server.client.get('/api/v1/payment?limit=100', { auth: a.appID });
  assert.is(first.body.payments.length, 2);
  assert.is(first.body.pageInfo.totalCount, all.body.payments.length);
  assert.is(first.body.pageInfo.hasNextPage, true);
  assert.equal(first.body.payments, all.body.payments.slice(0, 2));
  const times = all.body.payments.map((p: { payment: { createdAt: string } }) => p.payment.createdAt);
  assert.equal(times, [...times].sort().reverse());
  assert.ok(
    all.body.payments.every((p: { payment: { sourceAccountId: string } }) => p.payment.sourceAccountId === a.accountId),
  );
});

test("sourceAccountId: another company's or an unknown account is refused", async () => {
  assert.equal((await pay(server, a, keyPayment('src-1', { sourceAccountId: other.accountId }))).body, {
    error: 'Source account not found',
  });
  const second = await server.client.post('/api/v1/account', undefined, { auth: a.appID });
  await fund(server, second.body.account.accountId, 5_000);
  const res = await pay(
    server,
    a,
    keyPayment('src-2', { value: 5_000, sourceAccountId: second.body.account.accountId, autoApprove: true }),
  );
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.sourceAccountId, second.body.account.accountId);
  assert.is((await balanceOf(server, a, second.body.account.accountId)).total, 0);
});

test('CREATED payments not approved within 7 days are removed: DENIED and a MOVEMENT_REMOVED event', async () => {
  assert.is((await pay(server, a, keyPayment('stale-1', { value: 100 }))).status, 200);
  await advanceCompanyClock(server, a, 8 * 24 * 3600);
  await server.services.jobs.runNow('payments.expire');
  const res = await server.client.get('/api/v1/payment/stale-1', { auth: a.appID });
  assert.is(res.body.payment.status, 'DENIED');
  assert.is((await approve(server, a, 'stale-1')).status, 409);
  const removed = await listEventsOfCompany(server.database.db, a.companyId, 'OPENPIX:MOVEMENT_REMOVED');
  assert.ok(
    removed.some((e) => (e.payload as { payment: { correlationID: string } }).payment.correlationID === 'stale-1'),
  );
  // Confirmed payments are not touched.
  assert.is((await server.client.get('/api/v1/payment/pk-1', { auth: a.appID })).body.payment.status, 'CONFIRMED');
});

test.run();
