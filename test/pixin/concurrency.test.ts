// Money in under concurrency (real Postgres only; the embedded database has one session):
// the same Pix twice at once, one charge paid twice at once, devolutions racing for one
// balance or one Pix, and two processes settling devolutions from one queue.
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { receivePix, type IncomingPix } from '../../src/pixin/receive.service';
import { applyMove, counterLeg, OUTSIDE } from '../../src/ledger/ledger.service';
import { newEndToEndId } from '../../src/lib/ids';
import { cents } from '../../src/lib/money';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { makeCob } from './support';

// Money in as the server does it: its public URL, the receiving company's clock.
const RECEIVE = { publicUrl: 'http://localhost:8080' };

const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;

test.before(async () => {
  if (!onPostgres) return;
  a = await startTestServer({}, { backgroundJobs: false });
  b = await startTestServer({}, { schema: a.database.schema!, backgroundJobs: false });
});
test.after(async () => {
  if (!onPostgres) return;
  await auditLedger(a.services.db);
  await b.close();
  await a.close();
});

const payer = { name: 'Pagador', taxId: '52998224725', ispb: '18236120' };

async function balance(company: TestCompany) {
  const res = await a.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  const { total, blocked, available } = res.body.account.balance;
  return { total, blocked, available };
}

async function pixIn(company: TestCompany, value: number): Promise<string> {
  const res = await a.client.post('/api/v1/sandbox/pix-in', {
    pixKey: company.pixKey,
    value,
    payer: { name: 'Pagador', taxID: '52998224725' },
  });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

postgresOnly('the same end-to-end id arriving five times at once is settled once', async () => {
  const company = await createCompany(a.client);
  const at = new Date();
  const incoming: IncomingPix = {
    endToEndId: newEndToEndId('18236120', at),
    value: cents(777),
    at,
    payer,
    pixKey: company.pixKey,
  };
  const results = await Promise.all(
    [a, b, a, b, a].map((s) => s.services.db.transaction().execute((trx) => receivePix(trx, incoming, RECEIVE))),
  );
  for (const r of results) assert.equal(r, results[0]);
  assert.ok(results[0]!.ok);
  assert.equal(await balance(company), { total: 777, blocked: 0, available: 777 });
  const rows = await a.services.db
    .selectFrom('transactions')
    .select('id')
    .where('end_to_end_id', '=', incoming.endToEndId)
    .execute();
  assert.is(rows.length, 1);
});

postgresOnly('one charge paid by two Pix at once: one settles, the other is refused', async () => {
  const company = await createCompany(a.client);
  const { locationUrl } = await makeCob(a, company, { value: 5000 });
  const at = new Date();
  const pay = (s: TestServer) =>
    s.services.db
      .transaction()
      .execute((trx) =>
        receivePix(
          trx,
          { endToEndId: newEndToEndId('18236120', at), value: cents(5000), at, payer, locationUrl },
          RECEIVE,
        ),
      );
  const results = await Promise.all([pay(a), pay(b)]);
  assert.equal(results.map((r) => r.ok).sort(), [false, true]);
  const refused = results.find((r) => !r.ok)!;
  assert.equal(refused, { ok: false, code: 'NOT_PAYABLE', message: 'The charge is already paid' });
  assert.equal(await balance(company), { total: 5000, blocked: 0, available: 5000 });
});

postgresOnly('two devolutions racing for one balance: one is held, the other refused; never below zero', async () => {
  const company = await createCompany(a.client);
  const token = await pixToken(a.client, company);
  const first = await pixIn(company, 10000);
  const second = await pixIn(company, 10000);
  await a.services.db.transaction().execute(async (trx) => {
    assert.ok(
      (
        await applyMove(trx, {
          moveId: 'test-out:race',
          legs: [{ accountId: company.accountId, kind: 'DEBIT', amount: cents(10000) }, counterLeg(OUTSIDE, 10000)],
          at: new Date(),
        })
      ).ok,
    );
  });
  const [r1, r2] = await Promise.all([
    a.client.put(`/pix/v2/pix/${first}/devolucao/race1`, { valor: '100.00' }, { auth: token }),
    b.client.put(`/pix/v2/pix/${second}/devolucao/race2`, { valor: '100.00' }, { auth: token }),
  ]);
  assert.equal([r1.status, r2.status].sort(), [201, 400]);
  const loser = r1.status === 400 ? r1 : r2;
  assert.is(loser.body.detail, 'The available balance of the account does not cover the devolution');
  assert.equal(await balance(company), { total: 10000, blocked: 10000, available: 0 });
});

postgresOnly('ten devolutions of one Pix at once: the cap holds', async () => {
  const company = await createCompany(a.client);
  const token = await pixToken(a.client, company);
  const e2eid = await pixIn(company, 10000);
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? a : b).client.put(`/pix/v2/pix/${e2eid}/devolucao/cap${i}`, { valor: '20.00' }, { auth: token }),
    ),
  );
  assert.is(results.filter((r) => r.status === 201).length, 5);
  assert.is(results.filter((r) => r.status === 400).length, 5);
  assert.equal(await balance(company), { total: 10000, blocked: 10000, available: 0 });
});

postgresOnly('two processes settle one queue: every devolution settled once', async () => {
  const company = await createCompany(a.client);
  const token = await pixToken(a.client, company);
  const e2eid = await pixIn(company, 100000);
  for (let i = 0; i < 30; i++) {
    const res = await a.client.put(`/pix/v2/pix/${e2eid}/devolucao/q${i}`, { valor: '10.00' }, { auth: token });
    assert.is(res.status, 201, res.text);
  }
  const pending = await a.services.db
    .selectFrom('pix_devolutions')
    .select('rtr_id')
    .where('status', '=', 'EM_PROCESSAMENTO')
    .execute();
  const [na, nb] = await Promise.all([
    a.services.pixin.settlement.settlePending(),
    b.services.pixin.settlement.settlePending(),
  ]);
  assert.is(na + nb, pending.length);
  const rows = await a.services.db
    .selectFrom('pix_devolutions')
    .select('status')
    .where('end_to_end_id', '=', e2eid)
    .execute();
  assert.ok(rows.every((r) => r.status === 'DEVOLVIDO'));
  const refunds = await a.services.db
    .selectFrom('transactions')
    .select('id')
    .where('company_id', '=', company.companyId)
    .where('type', '=', 'REFUND_OUT')
    .execute();
  assert.is(refunds.length, 30);
  assert.equal(await balance(company), { total: 70000, blocked: 0, available: 70000 });
});

test.run();
