// The auditor itself: it catches a balance that does not match its entries, a payment hold
// left pending, and a money-out transaction not backed by debits of its value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyMove, counterLeg, effectOf, OUTSIDE } from '../../src/ledger/ledger.service';
import { insertTransaction } from '../../src/transactions/transactions.repository';
import { createCompany } from '../support/fixtures';
import { auditLedger, auditMoneyOut } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let companyId: string;
let accountId: string;
const at = new Date('2026-11-22T12:00:00Z');

test.before(async () => {
  server = await startTestServer();
  ({ companyId, accountId } = await createCompany(server.client));
});
test.after(async () => {
  await server.close();
});

type Legs = Parameters<typeof applyMove>[1]['legs'];
// The legs, balanced by the outside world when they create or destroy money.
const move = (moveId: string, legs: Legs, transactionId?: string) => {
  const net = legs.reduce((sum, leg) => sum + effectOf(leg), 0);
  const balanced = net === 0 ? legs : [...legs, counterLeg(OUTSIDE, -net)];
  return server.database.db
    .transaction()
    .execute((trx) => applyMove(trx, { moveId, legs: balanced, at, ...(transactionId ? { transactionId } : {}) }));
};

async function fails(): Promise<string> {
  try {
    await auditMoneyOut(server.database.db);
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

test('a clean ledger passes', async () => {
  await move('in', [{ accountId, kind: 'CREDIT', amount: 10_000 as never }]);
  await auditLedger(server.database.db);
});

test('a payment hold never settled nor released is caught', async () => {
  await move('payment:p1:hold', [{ accountId, kind: 'HOLD', bucket: 'blocked', amount: 500 as never }]);
  assert.match(await fails(), /payment p1 hold was settled or released 0 times/);
  await move('payment:p1:release', [{ accountId, kind: 'RELEASE', bucket: 'blocked', amount: 500 as never }]);
  await auditLedger(server.database.db);
});

test('auditMoneyOut: a PIX_OUT transaction not backed by debits of its value is caught (auditLedger alone does not look)', async () => {
  const tx = await insertTransaction(server.database.db, {
    company_id: companyId,
    account_id: accountId,
    type: 'PIX_OUT',
    value: 300,
    end_to_end_id: null,
    charge_id: null,
    payment_id: null,
    created_at: at,
  });
  assert.match(await fails(), /PIX_OUT transaction .* is not backed by debits of its value/);
  await auditLedger(server.database.db);
  await move('out', [{ accountId, kind: 'DEBIT', amount: 300 as never }], tx.id);
  await auditMoneyOut(server.database.db);
});

test("a balance changed behind the ledger's back is caught", async () => {
  const db = server.database.db;
  const { total } = await db
    .selectFrom('account_balances')
    .select('total')
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  await db.updateTable('account_balances').set({ total: 1 }).where('account_id', '=', accountId).execute();
  assert.match(await fails(), /does not match its entries/);
  // Put back, so the audit every test server makes when it closes passes.
  await db.updateTable('account_balances').set({ total }).where('account_id', '=', accountId).execute();
});

// A lone entry written behind the ledger's back (on a counter-account, which keeps no balance).
async function forge(kind: 'CREDIT' | 'DEBIT', moveId: string) {
  await server.database.db
    .insertInto('ledger_entries')
    .values({
      account_id: '@fees',
      move_id: moveId,
      kind,
      bucket: 'available',
      amount: 7,
      transaction_id: null,
      description: null,
      created_at: at,
    })
    .execute();
}

test('entries that do not add up to zero are caught', async () => {
  await forge('CREDIT', 'forged');
  assert.match(await fails(), /do not add up to zero/);
  await forge('DEBIT', 'forged');
  await auditLedger(server.database.db);
});

test.run();
