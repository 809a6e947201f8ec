// The sandbox failure table: every destination that fails on purpose, by key and by account
// number, ends the way the table says (and only in sandbox mode).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { FAILURE_TABLE } from '../../src/rail/outside-world';
import { createCompany, type TestCompany } from '../support/fixtures';
import { auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { advanceToLocalHour, approve, balanceOf, fund, pay } from './helpers';

let server: TestServer;
let a: TestCompany;

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client);
  await advanceToLocalHour(server, 11, a);
  await fund(server, a.accountId, 500_000);
});
test.after(async () => {
  await auditMoneyOut(server.database.db);
  await server.close();
});

const SPI = FAILURE_TABLE.filter((f) => f.failure !== 'NOT_ENOUGH_BALANCE' && f.failure !== 'LIMIT_EXCEEDED');

const manual = (account: string, correlationID: string) => ({
  type: 'MANUAL',
  value: 1_000,
  correlationID,
  holder: { name: 'Destino Sandbox', taxID: { taxID: '52998224725', type: 'BR:CPF' } },
  psp: { id: '60701190' },
  account: { branch: '0001', account, accountType: 'CACC' },
  autoApprove: true,
});

test('the table documents 11 destinations, each with a key and an account number', () => {
  assert.equal(
    FAILURE_TABLE.map((f) => f.failure),
    [
      'ACCOUNT_NOT_FOUND',
      'NOT_ENOUGH_BALANCE',
      'INVALID_PIX_KEY',
      'LIMIT_EXCEEDED',
      'AC03',
      'AC06',
      'AM04',
      'AM12',
      'BE01',
      'DS04',
      'FRAD',
    ],
  );
});

for (const row of SPI) {
  test(`${row.failure}: by key (${row.key}) and by account ${row.account} the payment ends FAILED, hold released`, async () => {
    const before = await balanceOf(server, a);
    const byKey = await pay(server, a, {
      type: 'PIX_KEY',
      value: 1_000,
      destinationAlias: row.key,
      destinationAliasType: 'EMAIL',
      correlationID: `key-${row.failure}`,
      autoApprove: true,
    });
    const byAccount = await pay(
      server,
      a,
      manual(`${row.account.slice(0, -1)}-${row.account.slice(-1)}`, `acc-${row.failure}`),
    );
    for (const res of [byKey, byAccount]) {
      assert.is(res.status, 200, res.text);
      assert.is(res.body.payment.status, 'FAILED');
      assert.is(res.body.transaction.providerRejectedReason, `${row.failure}: ${row.description}`);
      const entries = await server.database.db
        .selectFrom('ledger_entries')
        .select(['kind', 'bucket', 'amount'])
        .where('move_id', 'like', `payment:${res.body.payment.id}:%`)
        .orderBy('id')
        .execute();
      assert.equal(
        entries.map((e) => [e.kind, e.bucket, Number(e.amount)]),
        [
          ['HOLD', 'blocked', 1_000],
          ['RELEASE', 'blocked', 1_000],
        ],
      );
    }
    assert.equal(await balanceOf(server, a), before);
    const failed = await listEventsOfCompany(server.database.db, a.companyId, 'OPENPIX:MOVEMENT_FAILED');
    const event = failed.find(
      (e) => (e.payload as { payment: { correlationID: string } }).payment.correlationID === `key-${row.failure}`,
    );
    assert.ok(event, 'MOVEMENT_FAILED recorded');
    assert.is((event!.payload as { error: string }).error, `${row.failure}: ${row.description}`);
    const list = await server.client.get(`/api/v1/transaction`, { auth: a.appID });
    assert.ok(
      !list.body.transactions.some((t: { endToEndId: string }) => t.endToEndId === byKey.body.transaction.endToEndId),
      'a failed payment is no transaction',
    );
  });
}

test('NOT_ENOUGH_BALANCE: the approval is refused as for a real shortfall; the payment stays CREATED', async () => {
  const row = FAILURE_TABLE.find((f) => f.failure === 'NOT_ENOUGH_BALANCE')!;
  const before = await balanceOf(server, a);
  assert.is(
    (
      await pay(server, a, {
        type: 'PIX_KEY',
        value: 10,
        destinationAlias: row.key,
        destinationAliasType: 'EMAIL',
        correlationID: 'neb-key',
      })
    ).status,
    200,
  );
  const refused = await approve(server, a, 'neb-key');
  assert.equal(refused.body, { error: 'Account does not have enough balance to complete the operation' });
  assert.is(refused.status, 400);
  assert.is((await server.client.get('/api/v1/payment/neb-key', { auth: a.appID })).body.payment.status, 'CREATED');
  const byAccount = await pay(server, a, manual(row.account, 'neb-acc'));
  assert.equal(byAccount.body, { error: 'Account does not have enough balance to complete the operation' });
  assert.is((await server.client.get('/api/v1/payment/neb-acc', { auth: a.appID })).status, 404);
  assert.equal(await balanceOf(server, a), before);
});

test('LIMIT_EXCEEDED: the approval is refused as over the limits; nothing moves', async () => {
  const row = FAILURE_TABLE.find((f) => f.failure === 'LIMIT_EXCEEDED')!;
  const before = await balanceOf(server, a);
  const byKey = await pay(server, a, {
    type: 'PIX_KEY',
    value: 10,
    destinationAlias: row.key,
    destinationAliasType: 'EMAIL',
    correlationID: 'lim-key',
    autoApprove: true,
  });
  assert.equal(byKey.body, {
    error: 'Value exceeds the Pix limits of the account (sandbox destination limit-exceeded)',
  });
  assert.is((await pay(server, a, manual(row.account, 'lim-acc'))).status, 400);
  assert.equal(await balanceOf(server, a), before);
});

test('other outside accounts and keys settle normally', async () => {
  const res = await pay(server, a, manual('9000012', 'ok-acc'));
  assert.is(res.body.payment.status, 'CONFIRMED');
  const key = await pay(server, a, {
    type: 'PIX_KEY',
    value: 1_000,
    destinationAlias: 'ok@fail.pixgate.dev',
    destinationAliasType: 'EMAIL',
    correlationID: 'ok-key',
    autoApprove: true,
  });
  assert.is(key.body.payment.status, 'CONFIRMED');
});

test('outside sandbox mode the table does not apply', async () => {
  const live = await startTestServer({ PIXGATE_SANDBOX: 'false' });
  try {
    const created = await live.services.sandbox.createCompany({});
    const appID = created.application.appID;
    await fund(live, created.account.id, 10_000);
    const res = await live.client.post(
      '/api/v1/payment',
      {
        type: 'PIX_KEY',
        value: 1_000,
        destinationAlias: 'ac03@fail.pixgate.dev',
        destinationAliasType: 'EMAIL',
        correlationID: 'live',
        autoApprove: true,
      },
      { auth: appID },
    );
    assert.is(res.status, 200, res.text);
    assert.is(res.body.payment.status, 'CONFIRMED');
    await auditMoneyOut(live.database.db);
  } finally {
    await live.close();
  }
});

test.run();
