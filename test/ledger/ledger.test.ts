// The ledger: holds, settlements, idempotent moves, no balance below zero, and (on the real
// Postgres) concurrent debits of which exactly the covered ones succeed.
import { sql } from 'kysely';
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { applyMove, counterLeg, effectOf, getBalance, OUTSIDE } from '../../src/ledger/ledger.service';
import { cents } from '../../src/lib/money';
import { createCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let account: string;
let other: string;
const at = new Date('2026-11-22T12:00:00Z');

test.before(async () => {
  server = await startTestServer();
  account = (await createCompany(server.client)).accountId;
  other = (await createCompany(server.client)).accountId;
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

type Legs = Parameters<typeof applyMove>[1]['legs'];
// The legs as written, balanced by the outside world when they create or destroy money.
const withCounter = (legs: Legs): Legs => {
  const net = legs.reduce((sum, leg) => sum + effectOf(leg), 0);
  return net === 0 ? legs : [...legs, counterLeg(OUTSIDE, -net)];
};
const move = (moveId: string, legs: Legs) =>
  server.database.db.transaction().execute((trx) => applyMove(trx, { moveId, legs: withCounter(legs), at }));

test('credit, hold, settle and release move total, blocked and available', async () => {
  assert.ok((await move('in-1', [{ accountId: account, kind: 'CREDIT', amount: cents(10_000) }])).ok);
  assert.ok((await move('hold-1', [{ accountId: account, kind: 'HOLD', bucket: 'blocked', amount: cents(3_000) }])).ok);
  assert.equal(await getBalance(server.database.db, account), {
    total: 10_000,
    blocked: 3_000,
    available: 7_000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });
  assert.ok(
    (
      await move('settle-1', [
        { accountId: account, kind: 'DEBIT', bucket: 'blocked', amount: cents(2_000) },
        { accountId: account, kind: 'RELEASE', bucket: 'blocked', amount: cents(1_000) },
      ])
    ).ok,
  );
  assert.equal(await getBalance(server.database.db, account), {
    total: 8_000,
    blocked: 0,
    available: 8_000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });
});

test('the same move id applies once', async () => {
  const first = await move('in-2', [{ accountId: account, kind: 'CREDIT', amount: cents(500) }]);
  const again = await move('in-2', [{ accountId: account, kind: 'CREDIT', amount: cents(500) }]);
  assert.ok(first.ok && first.applied);
  assert.ok(again.ok && !again.applied);
  assert.is((await getBalance(server.database.db, account)).total, 8_500);
});

test('a debit or hold beyond the available balance is refused with a code; nothing changes', async () => {
  const before = await getBalance(server.database.db, account);
  const debit = await move('out-big', [{ accountId: account, kind: 'DEBIT', amount: cents(before.available + 1) }]);
  assert.equal(debit, { ok: false, code: 'INSUFFICIENT_FUNDS', accountId: account });
  const hold = await move('hold-big', [
    { accountId: account, kind: 'HOLD', bucket: 'security', amount: cents(before.available + 1) },
  ]);
  assert.is(hold.ok, false);
  const release = await move('release-none', [
    { accountId: account, kind: 'RELEASE', bucket: 'blocked', amount: cents(1) },
  ]);
  assert.equal(release, { ok: false, code: 'INSUFFICIENT_HELD', accountId: account });
  assert.equal(await getBalance(server.database.db, account), before);
});

test('a transfer debits one account and credits the other in one move', async () => {
  const result = await move('transfer-1', [
    { accountId: account, kind: 'DEBIT', amount: cents(1_500) },
    { accountId: other, kind: 'CREDIT', amount: cents(1_500) },
  ]);
  assert.ok(result.ok);
  assert.is((await getBalance(server.database.db, account)).total, 7_000);
  assert.is((await getBalance(server.database.db, other)).total, 1_500);
});

test('zero and fractional amounts are invalid', async () => {
  assert.equal(await move('zero', [{ accountId: account, kind: 'CREDIT', amount: 0 as never }]), {
    ok: false,
    code: 'INVALID_AMOUNT',
    accountId: account,
  });
  assert.equal(await move('frac', [{ accountId: account, kind: 'CREDIT', amount: 1.5 as never }]), {
    ok: false,
    code: 'INVALID_AMOUNT',
    accountId: account,
  });
});

test('entries are append-only', async () => {
  const db = server.database.db;
  const before = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  await db.updateTable('ledger_entries').set({ amount: 1 }).execute();
  await db.deleteFrom('ledger_entries').execute();
  const after = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.is(Number(after.n), Number(before.n));
});

test('a move whose legs do not add up to zero is a bug, and nothing is written', async () => {
  const before = await getBalance(server.database.db, account);
  try {
    await server.database.db
      .transaction()
      .execute((trx) =>
        applyMove(trx, { moveId: 'unbalanced', legs: [{ accountId: account, kind: 'CREDIT', amount: cents(1) }], at }),
      );
    assert.unreachable('an unbalanced move was applied');
  } catch (error) {
    assert.match((error as Error).message, /does not balance/);
  }
  assert.equal(await getBalance(server.database.db, account), before);
});

test('a move id replayed with other legs is refused: EXISTS_WITH_DIFFERENT_LEGS', async () => {
  assert.ok((await move('replay-1', [{ accountId: account, kind: 'CREDIT', amount: cents(300) }])).ok);
  const other = await move('replay-1', [{ accountId: account, kind: 'CREDIT', amount: cents(301) }]);
  assert.equal(other, { ok: false, code: 'EXISTS_WITH_DIFFERENT_LEGS', accountId: account });
  const same = await move('replay-1', [{ accountId: account, kind: 'CREDIT', amount: cents(300) }]);
  assert.ok(same.ok && !same.applied);
});

test('the outside world is a counter-account: money in leaves it below zero, the ledger adds up to zero', async () => {
  const net = (account?: string) => {
    let q = server.database.db
      .selectFrom('ledger_entries')
      .select(
        sql<number>`coalesce(sum(case kind when 'CREDIT' then amount when 'DEBIT' then -amount else 0 end), 0)`.as('n'),
      );
    if (account) q = q.where('account_id', '=', account);
    return q.executeTakeFirstOrThrow().then((r) => Number(r.n));
  };
  assert.ok((await net(OUTSIDE)) < 0, 'money came in from outside');
  assert.is(await net(), 0);
  // It keeps no balance row (no lock every move would wait on).
  assert.is(
    await server.database.db
      .selectFrom('account_balances')
      .select('account_id')
      .where('account_id', '=', OUTSIDE)
      .executeTakeFirst(),
    undefined,
  );
});

postgresOnly('concurrent debits: exactly the covered ones succeed (real Postgres only)', async () => {
  const payer = (await createCompany(server.client)).accountId;
  await move('seed', [{ accountId: payer, kind: 'CREDIT', amount: cents(10_000) }]);
  // 20 debits of 1 000 against 10 000: exactly 10 may pass, whatever the interleaving.
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      move(`race-${i}`, [
        { accountId: payer, kind: 'DEBIT', amount: cents(1_000) },
        { accountId: other, kind: 'CREDIT', amount: cents(1_000) },
      ]),
    ),
  );
  assert.is(results.filter((r) => r.ok).length, 10);
  assert.ok(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'INSUFFICIENT_FUNDS'));
  assert.is((await getBalance(server.database.db, payer)).total, 0);
});

test.run();
