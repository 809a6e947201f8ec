// A payment request sent again (same correlationID, same body) answers the payment it made,
// with no second debit, whatever happened to its destination since: the charge it paid is
// paid (CONCLUIDA), the charge was paid by someone else, the key it paid was deleted. The
// correlationID is looked at before the destination is validated again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, balanceOf, fund, pay } from './helpers';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client, { name: 'Aurora Moda' });
  b = await createCompany(server.client, { name: 'Padaria Estrela' });
  await advanceToLocalHour(server, 10, a, b);
  await fund(server, a.accountId, 1_000_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

async function newCharge(correlationID: string, value: number): Promise<string> {
  const res = await server.client.post('/api/v1/charge', { correlationID, value }, { auth: b.appID });
  assert.is(res.status, 200, res.text);
  return res.body.charge.brCode;
}

async function entriesOfPayment(id: string): Promise<number> {
  const rows = await server.database.db
    .selectFrom('ledger_entries')
    .select('id')
    .where('move_id', 'like', `payment:${id}:%`)
    .execute();
  return rows.length;
}

test('the same payment of a charge, sent again after it completed, answers the payment; one debit', async () => {
  const brCode = await newCharge('pedido-10', 4_850);
  const body = { type: 'QR_CODE', qrCode: brCode, correlationID: 'paga-pedido-10', autoApprove: true };
  const first = await pay(server, a, body);
  assert.is(first.status, 200, first.text);
  assert.is(first.body.payment.status, 'CONFIRMED');
  const after = await balanceOf(server, a);
  const row = await server.database.db
    .selectFrom('payments')
    .select('id')
    .where('correlation_id', '=', 'paga-pedido-10')
    .executeTakeFirstOrThrow();
  const written = await entriesOfPayment(row.id);
  assert.ok(written > 0, 'the payment moved money');
  for (let i = 0; i < 2; i++) {
    const again = await pay(server, a, body);
    assert.is(again.status, 200, again.text);
    assert.equal(again.body, first.body);
  }
  assert.equal(await balanceOf(server, a), after, 'no second debit');
  assert.is(await entriesOfPayment(row.id), written);
  // Another body under the same correlationID is refused as such, not as a paid charge.
  const other = await pay(server, a, { ...body, comment: 'outro' });
  assert.equal(
    [other.status, other.body],
    [400, { error: 'Payment with this correlationID already exists with a different body' }],
  );
  // A new correlationID for the paid charge is refused as before.
  const fresh = await pay(server, a, { ...body, correlationID: 'paga-pedido-10-de-novo' });
  assert.equal([fresh.status, fresh.body], [400, { error: "The QR code's charge cannot be paid (status CONCLUIDA)" }]);
});

test('a payment awaiting approval whose charge was paid by someone else answers itself when sent again', async () => {
  const brCode = await newCharge('pedido-11', 1_000);
  const body = { type: 'QR_CODE', qrCode: brCode, correlationID: 'aguarda-pedido-11' };
  const first = await pay(server, a, body);
  assert.equal([first.status, first.body.payment.status], [200, 'CREATED'], first.text);
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode,
    payer: { name: 'Joao Souza', taxID: '268.015.731-10' },
  });
  assert.is(paid.status, 200, paid.text);
  const before = await balanceOf(server, a);
  const again = await pay(server, a, body);
  assert.is(again.status, 200, again.text);
  assert.equal(again.body, first.body);
  assert.equal(await balanceOf(server, a), before);
});

test('a payment to a key that was deleted since answers itself when sent again', async () => {
  const made = await server.client.post('/api/v1/pix-keys', { key: 'nova', type: 'EVP' }, { auth: b.appID });
  assert.is(made.status, 201, made.text);
  const key = made.body.key as string;
  const body = {
    type: 'PIX_KEY',
    value: 700,
    destinationAlias: key,
    destinationAliasType: 'RANDOM',
    correlationID: 'chave-apagada',
    autoApprove: true,
  };
  const first = await pay(server, a, body);
  assert.equal([first.status, first.body.payment?.status], [200, 'CONFIRMED'], first.text);
  const removed = await server.client.delete(`/api/v1/pix-keys/${encodeURIComponent(key)}`, { auth: b.appID });
  assert.is(removed.status, 204, removed.text);
  const before = await balanceOf(server, a);
  const again = await pay(server, a, body);
  assert.is(again.status, 200, again.text);
  assert.equal(again.body, first.body);
  assert.equal(await balanceOf(server, a), before);
});

test.run();
