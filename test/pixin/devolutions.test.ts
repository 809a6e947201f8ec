// Devolutions of received Pix (PUT/GET /pix/v2/pix/{e2eid}/devolucao/{id}): the caps by
// nature, the id rules, the money held then debited (or released) by the settlement job,
// the transaction rows and events, the 90-day window on the server clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { receivePix, type IncomingPix } from '../../src/pixin/receive.service';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { applyMove, counterLeg, OUTSIDE } from '../../src/ledger/ledger.service';
import { newEndToEndId } from '../../src/lib/ids';
import { cents } from '../../src/lib/money';
import { SETTLEMENT_JOB } from '../../src/pixin/devolution-settlement';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';
import { closeAudited, startPixinServer } from './support';

// Money in as the server does it: its public URL, the receiving company's clock.
const RECEIVE = { publicUrl: 'http://localhost:8080' };

let server: TestServer;
let acme: TestCompany;
let bearer: string;

test.before(async () => {
  ({ server, acme, bearer } = await startPixinServer());
});
test.after(() => closeAudited(server));

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';
const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

async function pixIn(company: TestCompany, value: number, who = payer): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: company.pixKey, value, payer: who });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

async function balance(company: TestCompany) {
  const res = await server.client.get(`/api/v1/account/${company.accountId}`, { auth: company.appID });
  const { total, blocked, available } = res.body.account.balance;
  return { total, blocked, available };
}

const put = (e2eid: string, id: string, body: unknown, auth = bearer) =>
  server.client.put(`/pix/v2/pix/${e2eid}/devolucao/${id}`, body, { auth });
const get = (e2eid: string, id: string, auth = bearer) =>
  server.client.get(`/pix/v2/pix/${e2eid}/devolucao/${id}`, { auth });
const settle = () => server.services.jobs.runNow(SETTLEMENT_JOB);

test('a devolution holds the money, then the rail returns it (DEVOLVIDO) and the balance drops', async () => {
  const e2eid = await pixIn(acme, 128000);
  const res = await put(e2eid, 'DEV10491A', {
    valor: '120.00',
    natureza: 'ORIGINAL',
    descricao: 'Dez salgados nao entregues',
  });
  assert.is(res.status, 201, res.text);
  const requested = res.body;
  assert.match(requested.rtrId, /^D99999999\d{12}[a-zA-Z0-9]{11}$/);
  assert.equal(requested, {
    id: 'DEV10491A',
    rtrId: requested.rtrId,
    valor: '120.00',
    natureza: 'ORIGINAL',
    descricao: 'Dez salgados nao entregues',
    horario: { solicitacao: requested.horario.solicitacao },
    status: 'EM_PROCESSAMENTO',
  });
  assert.equal(await balance(acme), { total: 128000, blocked: 12000, available: 116000 });
  assert.equal((await get(e2eid, 'DEV10491A')).body, requested);

  await settle();
  const settled = await get(e2eid, 'DEV10491A');
  assert.is(settled.body.status, 'DEVOLVIDO');
  assert.ok(Date.parse(settled.body.horario.liquidacao) >= Date.parse(requested.horario.solicitacao));
  assert.equal(await balance(acme), { total: 116000, blocked: 0, available: 116000 });

  const pix = await server.client.get(`/pix/v2/pix/${e2eid}`, { auth: bearer });
  assert.equal(pix.body.devolucoes, [settled.body]);

  const refundRows = await server.services.db
    .selectFrom('transactions')
    .selectAll()
    .where('end_to_end_id', '=', requested.rtrId)
    .execute();
  assert.equal(
    refundRows.map((r) => [r.type, r.value, r.company_id]),
    [['REFUND_OUT', 12000, acme.companyId]],
  );
  assert.equal(refundRows[0]!.details, {
    comment: 'Dez salgados nao entregues',
    destination: { name: payer.name, taxID: payer.taxID, ispb: '18236120' },
    originalEndToEndId: e2eid,
    devolutionId: 'DEV10491A',
    natureza: 'ORIGINAL',
  });
  const events = (await listEventsOfCompany(server.services.db, acme.companyId)).map((e) => e.type);
  // Events of one instant are in no particular order.
  assert.equal(events.slice(-2).sort(), [
    'OPENPIX:TRANSACTION_REFUND_RECEIVED',
    'PIX_TRANSACTION_REFUND_SENT_CONFIRMED',
  ]);
  const confirmed = (
    await listEventsOfCompany(server.services.db, acme.companyId, 'OPENPIX:TRANSACTION_REFUND_RECEIVED')
  )[0]!.payload as Record<string, any>;
  assert.equal(confirmed.refund, {
    status: 'CONFIRMED',
    value: 12000,
    correlationID: 'DEV10491A',
    endToEndId: requested.rtrId,
    time: requested.horario.solicitacao,
    comment: 'Dez salgados nao entregues',
    refundId: 'DEV10491A',
    originalEndToEndId: e2eid,
    settledAt: settled.body.horario.liquidacao,
  });
  assert.is(confirmed.pix.endToEndId, e2eid);

  // Settling again moves nothing.
  await settle();
  assert.equal(await balance(acme), { total: 116000, blocked: 0, available: 116000 });
});

test('the same id with the same request answers the existing devolution; another request is refused', async () => {
  const e2eid = await pixIn(acme, 5000);
  const first = await put(e2eid, 'same1', { valor: '7.89' });
  assert.is(first.status, 201);
  assert.is(first.body.natureza, 'ORIGINAL');
  const again = await put(e2eid, 'same1', { valor: '7.89', natureza: 'ORIGINAL' });
  assert.is(again.status, 201);
  assert.equal(again.body, first.body);
  const other = await put(e2eid, 'same1', { valor: '7.90' });
  assert.is(other.status, 400);
  assert.is(other.body.type, PROBLEM + 'PixDevolucaoInvalida');
  assert.equal(other.body.violacoes, [
    {
      razao: 'The devolution id same1 is already used for this Pix with another request',
      propriedade: 'id',
      valor: 'same1',
    },
  ]);
  // The id is per Pix: another Pix may use it.
  const elsewhere = await put(await pixIn(acme, 1000), 'same1', { valor: '1.00' });
  assert.is(elsewhere.status, 201);
});

test('ORIGINAL is capped at the Pix value minus earlier devolutions; refused ones do not count', async () => {
  const e2eid = await pixIn(acme, 10000);
  assert.is((await put(e2eid, 'a1', { valor: '60.00' })).status, 201);
  const over = await put(e2eid, 'a2', { valor: '40.01' });
  assert.is(over.status, 400);
  assert.is(over.body.type, PROBLEM + 'PixDevolucaoInvalida');
  assert.equal(over.body.violacoes, [
    {
      razao: 'The devolution exceeds what is left to return of the Pix value: at most 40.00',
      propriedade: 'valor',
      valor: '40.01',
    },
  ]);
  assert.is((await put(e2eid, 'a3', { valor: '40.00' })).status, 201);
  const nothingLeft = await put(e2eid, 'a4', { valor: '0.01' });
  assert.is(nothingLeft.status, 400);
});

test('RETIRADA is refused for a Pix without a withdrawal part; bad amounts are refused', async () => {
  const e2eid = await pixIn(acme, 10000);
  const retirada = await put(e2eid, 'r1', {
    valor: '50.00',
    natureza: 'RETIRADA',
    descricao: 'Troco nao entregue no caixa',
  });
  assert.is(retirada.status, 400);
  assert.is(retirada.body.type, PROBLEM + 'PixDevolucaoInvalida');
  assert.is(retirada.body.violacoes[0].propriedade, 'natureza');
  for (const body of [
    { valor: '0.00' },
    { valor: '1.5' },
    { valor: '10.00', natureza: 'MED_FRAUDE' },
    { valor: '1.00', descricao: 'x'.repeat(141) },
    {},
  ]) {
    const res = await put(e2eid, 'bad1', body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.type, PROBLEM + 'PixDevolucaoInvalida', JSON.stringify(body));
  }
  assert.is((await get(e2eid, 'bad1')).status, 404);
});

test("unknown Pix or devolution, or another company's: 404 with the right type", async () => {
  const e2eid = await pixIn(acme, 1000);
  assert.is((await put(e2eid, 'mine1', { valor: '1.00' })).status, 201);
  const unknownDevolution = await get(e2eid, 'nope');
  assert.is(unknownDevolution.status, 404);
  assert.is(unknownDevolution.body.type, PROBLEM + 'PixDevolucaoNaoEncontrada');
  const unknownPix = await get('E18236120202601011200abcdefghijk', 'mine1');
  assert.is(unknownPix.body.type, PROBLEM + 'PixNaoEncontrado');

  const other = await createCompany(server.client, { name: 'Outra' });
  const otherBearer = await pixToken(server.client, other);
  const theirs = await get(e2eid, 'mine1', otherBearer);
  assert.is(theirs.status, 404);
  assert.is(theirs.body.type, PROBLEM + 'PixNaoEncontrado');
  const putTheirs = await put(e2eid, 'x1', { valor: '1.00' }, otherBearer);
  assert.is(putTheirs.status, 404);
  assert.is(putTheirs.body.type, PROBLEM + 'PixNaoEncontrado');
});

test("a devolution the payer's bank refuses is NAO_REALIZADO with a reason and the hold is released", async () => {
  const company = await createCompany(server.client, { name: 'Recusa Ltda' });
  const token = await pixToken(server.client, company);
  const e2eid = await pixIn(company, 5000, { name: 'Conta Encerrada', taxID: '000.000.001-91' });
  const res = await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/troco1`, { valor: '50.00' }, { auth: token });
  assert.is(res.status, 201, res.text);
  assert.equal(await balance(company), { total: 5000, blocked: 5000, available: 0 });
  await settle();
  const refused = await server.client.get(`/pix/v2/pix/${e2eid}/devolucao/troco1`, { auth: token });
  assert.equal(refused.body, { ...res.body, status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' });
  assert.equal(await balance(company), { total: 5000, blocked: 0, available: 5000 });
  const events = (await listEventsOfCompany(server.services.db, company.companyId)).map((e) => e.type);
  assert.equal(events, ['OPENPIX:TRANSACTION_RECEIVED', 'PIX_TRANSACTION_REFUND_SENT_REJECTED']);
  const rows = await server.services.db
    .selectFrom('transactions')
    .select('type')
    .where('company_id', '=', company.companyId)
    .execute();
  assert.equal(
    rows.map((r) => r.type),
    ['PIX_IN'],
  );
  // What was refused is refundable again.
  const again = await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/troco2`, { valor: '50.00' }, { auth: token });
  assert.is(again.status, 201);
});

test('never below zero: a devolution the available balance does not cover is refused', async () => {
  const company = await createCompany(server.client, { name: 'Sem Saldo' });
  const token = await pixToken(server.client, company);
  const e2eid = await pixIn(company, 10000);
  // Money leaves the account (as a payment would).
  await server.services.db.transaction().execute(async (trx) => {
    const moved = await applyMove(trx, {
      moveId: 'test-out:1',
      legs: [{ accountId: company.accountId, kind: 'DEBIT', amount: cents(6000) }, counterLeg(OUTSIDE, 6000)],
      at: new Date(),
    });
    assert.ok(moved.ok);
  });
  const res = await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/d1`, { valor: '40.01' }, { auth: token });
  assert.is(res.status, 400);
  assert.is(res.body.type, PROBLEM + 'PixDevolucaoInvalida');
  assert.is(res.body.detail, 'The available balance of the account does not cover the devolution');
  assert.is(
    (await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/d2`, { valor: '40.00' }, { auth: token })).status,
    201,
  );
  assert.equal(await balance(company), { total: 4000, blocked: 4000, available: 0 });
});

test('a local payer gets the money back (REFUND_IN); a closed payer account refuses it', async () => {
  const payerCo = await createCompany(server.client, { name: 'Pagadora SA' });
  const receiver = await createCompany(server.client, { name: 'Recebedora SA' });
  const token = await pixToken(server.client, receiver);
  await pixIn(payerCo, 10000);
  const db = server.services.db;
  // A local payment: the payer's side debits, receivePix credits, in one transaction.
  const pay = async (value: number) => {
    const at = await server.services.clock.now(receiver.companyId);
    const incoming: IncomingPix = {
      endToEndId: newEndToEndId('99999999', at),
      value: cents(value),
      at,
      payer: {
        name: 'Pagadora SA',
        taxId: '11222333000181',
        ispb: '99999999',
        companyId: payerCo.companyId,
        accountId: payerCo.accountId,
      },
      pixKey: receiver.pixKey,
      txid: 'notaFiscal123',
    };
    await db.transaction().execute(async (trx) => {
      assert.ok(
        (
          await applyMove(trx, {
            moveId: `pix-out:${incoming.endToEndId}`,
            legs: [{ accountId: payerCo.accountId, kind: 'DEBIT', amount: cents(value) }, counterLeg(OUTSIDE, value)],
            at,
          })
        ).ok,
      );
      assert.ok((await receivePix(trx, incoming, RECEIVE)).ok);
    });
    return incoming.endToEndId;
  };
  const e2eid = await pay(3000);
  assert.equal(await balance(payerCo), { total: 7000, blocked: 0, available: 7000 });
  const pixRes = await server.client.get(`/pix/v2/pix/${e2eid}`, { auth: token });
  assert.is(pixRes.body.txid, 'notaFiscal123');
  assert.is(
    (await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/back1`, { valor: '10.00' }, { auth: token })).status,
    201,
  );
  await settle();
  assert.equal(await balance(payerCo), { total: 8000, blocked: 0, available: 8000 });
  assert.equal(await balance(receiver), { total: 2000, blocked: 0, available: 2000 });
  const refundIn = await db
    .selectFrom('transactions')
    .selectAll()
    .where('company_id', '=', payerCo.companyId)
    .where('type', '=', 'REFUND_IN')
    .execute();
  assert.is(refundIn.length, 1);
  assert.is(refundIn[0]!.value, 1000);

  // The Pix had a txid: the Pix API callback carries it with its devolutions.
  const callbacks = await listEventsOfCompany(db, receiver.companyId, 'PIX_API:PIX');
  assert.is(callbacks.length, 2);
  const last = callbacks[1]!.payload as { chave: string; pix: { devolucoes: Array<{ id: string; status: string }> } };
  assert.is(last.chave, receiver.pixKey);
  assert.equal(
    last.pix.devolucoes.map((d) => [d.id, d.status]),
    [['back1', 'DEVOLVIDO']],
  );

  // The payer's account closes: the next devolution is not made.
  await db.updateTable('bank_accounts').set({ status: 'CLOSED' }).where('id', '=', payerCo.accountId).execute();
  assert.is(
    (await server.client.put(`/pix/v2/pix/${e2eid}/devolucao/back2`, { valor: '5.00' }, { auth: token })).status,
    201,
  );
  await settle();
  const refused = await server.client.get(`/pix/v2/pix/${e2eid}/devolucao/back2`, { auth: token });
  assert.is(refused.body.status, 'NAO_REALIZADO');
  assert.equal(await balance(payerCo), { total: 8000, blocked: 0, available: 8000 });
  assert.equal(await balance(receiver), { total: 2000, blocked: 0, available: 2000 });
});

// Last: moves the company's clock.
test("the 90-day window is measured on the receiving company's clock", async () => {
  const e2eid = await pixIn(acme, 1000);
  const clock = await server.client.post(
    '/api/v1/sandbox/clock/advance',
    { seconds: 89 * 24 * 3600 },
    { auth: acme.appID },
  );
  assert.is(clock.status, 200, clock.text);
  assert.is((await put(e2eid, 'in90', { valor: '1.00' })).status, 201);
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 2 * 24 * 3600 }, { auth: acme.appID });
  const late = await put(e2eid, 'out90', { valor: '1.00' });
  assert.is(late.status, 400);
  assert.is(late.body.type, PROBLEM + 'PixDevolucaoInvalida');
  assert.is(late.body.detail, 'The devolution window of 90 days from the settlement of the Pix has ended');
});

test.run();
