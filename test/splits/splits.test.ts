// Split charges with money: the parts move when the charge is paid, in the payment's own
// transaction; a refund takes them back in proportion (the rule in specs/platform.yaml,
// SplitInput).
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { partAmounts } from '../../src/splits/splits.rules';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let shop: TestCompany;
let partner: TestCompany;
let carrier: TestCompany;
const subKey = randomUUID();
const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

test.before(async () => {
  server = await startTestServer();
  shop = await createCompany(server.client, { name: 'Loja Split' });
  partner = await createCompany(server.client, { name: 'Parceiro' });
  carrier = await createCompany(server.client, { name: 'Transportadora' });
  const sub = await server.client.post(
    '/api/v1/subaccount',
    { pixKey: subKey, name: 'Vendedor' },
    { auth: shop.appID },
  );
  assert.is(sub.status, 200, sub.text);
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const total = async (c: TestCompany) =>
  (await server.client.get(`/api/v1/account/${c.accountId}`, { auth: c.appID })).body.account.balance.total;
const subBalance = async () =>
  (await server.client.get(`/api/v1/subaccount/${subKey}`, { auth: shop.appID })).body.SubAccount.balance;

async function paidCharge(value: number, splits: unknown[]): Promise<{ correlationID: string; endToEndId: string }> {
  const correlationID = `split-${randomUUID()}`;
  const created = await server.client.post('/api/v1/charge', { correlationID, value, splits }, { auth: shop.appID });
  assert.is(created.status, 200, created.text);
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: created.body.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  return { correlationID, endToEndId: paid.body.endToEndId };
}

test('a paid charge with three splits leaves four balances that add up to the charge value and pass the ledger auditor', async () => {
  const { endToEndId } = await paidCharge(10_000, [
    { pixKey: carrier.pixKey, value: 1500, splitType: 'SPLIT_INTERNAL_TRANSFER' },
    { pixKey: subKey, value: 2500, splitType: 'SPLIT_SUB_ACCOUNT' },
    { pixKey: partner.pixKey, value: 1000, splitType: 'SPLIT_PARTNER' },
  ]);
  const balances = [await total(shop), await subBalance(), await total(carrier), await total(partner)];
  assert.equal(balances, [5000, 2500, 1500, 1000]);
  assert.is(
    balances.reduce((a, b) => a + b, 0),
    10_000,
  );
  await auditLedger(server.database.db);
  // The payment's transaction shows the parts; the receiving companies see money received.
  const tx = await server.client.get(`/api/v1/transaction/${endToEndId}`, { auth: shop.appID });
  assert.equal(
    tx.body.transaction.splits.map((s: { value: number; status: string }) => [s.value, s.status]),
    [
      [1500, 'SENT'],
      [2500, 'SENT'],
      [1000, 'SENT'],
    ],
  );
  const received = await server.client.get('/api/v1/transaction', { auth: partner.appID });
  assert.equal(
    received.body.transactions.map((t: { type: string; value: number }) => [t.type, t.value]),
    [['PAYMENT', 1000]],
  );
  const statement = await server.client.get('/api/v1/statement', { auth: shop.appID });
  assert.equal(
    statement.body.map((l: { type: string; value: number; balance: number }) => [l.type, l.value, l.balance]),
    [
      ['CREDIT', 10_000, 10_000],
      ['DEBIT', 5000, 5000],
    ],
  );
});

test('a partner key outside this server leaves through the rail; unreachable parts stay', async () => {
  const before = await total(shop);
  const { endToEndId } = await paidCharge(4000, [
    { pixKey: 'financeiro@parceiro-fora.com.br', value: 1000, splitType: 'SPLIT_PARTNER' },
    { pixKey: 'ninguem@exemplo-split.com.br', value: 700, splitType: 'SPLIT_INTERNAL_TRANSFER' },
    { pixKey: partner.pixKey, value: 300, splitType: 'SPLIT_SUB_ACCOUNT' },
  ]);
  assert.is(await total(shop), before + 3000);
  const tx = await server.client.get(`/api/v1/transaction/${endToEndId}`, { auth: shop.appID });
  assert.equal(
    tx.body.transaction.splits.map((s: { status: string }) => s.status),
    ['SENT', 'KEPT', 'KEPT'],
  );
  const out = await server.client.get('/api/v1/transaction?type=PIX_OUT', { auth: shop.appID });
  assert.equal(
    out.body.transactions.map((t: { value: number }) => t.value),
    [1000],
  );
});

test('a refund of a split charge takes the parts back in proportion', async () => {
  const { correlationID } = await paidCharge(10_000, [
    { pixKey: carrier.pixKey, value: 3000 },
    { pixKey: subKey, value: 2000, splitType: 'SPLIT_SUB_ACCOUNT' },
  ]);
  const [shopBefore, carrierBefore, subBefore] = [await total(shop), await total(carrier), await subBalance()];
  const refund = await server.client.post(
    `/api/v1/charge/${correlationID}/refund`,
    { correlationID: `r-${correlationID}`, value: 5001 },
    { auth: shop.appID },
  );
  assert.is(refund.status, 200, refund.text);
  // 5001 x 3000 / 10000 = 1500.3 and 5001 x 2000 / 10000 = 1000.2, rounded down.
  assert.is(await total(carrier), carrierBefore - 1500);
  assert.is(await subBalance(), subBefore - 1000);
  // The receiver's available balance gives up the whole refund at once: held (blocked) until
  // the rail settles it, or already gone when the settlement job ran meanwhile.
  const shopAccount = (await server.client.get(`/api/v1/account/${shop.accountId}`, { auth: shop.appID })).body.account;
  const { total: shopTotal, blocked } = shopAccount.balance;
  assert.is(shopTotal - blocked, shopBefore + 2500 - 5001);
  assert.ok(blocked === 5001 || blocked === 0, `blocked ${blocked}`);
});

test('parts shrink in proportion when less than their sum is paid', () => {
  assert.equal(partAmounts([600, 400], 2000), [600, 400]);
  assert.equal(partAmounts([600, 400], 500), [300, 200]);
  assert.equal(partAmounts([1, 1, 1], 2), [0, 0, 0]);
});

test.run();
