// Refunds of any received Pix (POST/GET /api/v1/refund): a Pix sent to a key without a charge
// can be sent back; the refund is the same devolution the Pix API shows, found by its
// correlationID or its refundId, listed with the refunds of charges, and kept per company.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SETTLEMENT_JOB } from '../../src/pixin/devolution-settlement';
import { createCompany, pixToken, type TestCompany } from '../support/fixtures';
import type { TestServer } from '../support/server';
import { closeAudited, makeCob, startPixinServer } from './support';

let server: TestServer;
let acme: TestCompany;
let bearer: string;

test.before(async () => {
  ({ server, acme, bearer } = await startPixinServer());
});
test.after(() => closeAudited(server));

const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

async function pixIn(company: TestCompany, value: number): Promise<string> {
  const res = await server.client.post('/api/v1/sandbox/pix-in', { pixKey: company.pixKey, value, payer });
  assert.is(res.status, 200, res.text);
  return res.body.endToEndId;
}

const createRefund = (body: unknown, auth = acme.appID) => server.client.post('/api/v1/refund', body, { auth });
const getRefund = (id: string, auth = acme.appID) =>
  server.client.get(`/api/v1/refund/${encodeURIComponent(id)}`, { auth });

test('a Pix received without a charge is refunded in part, seen in both APIs, and settles', async () => {
  const endToEndId = await pixIn(acme, 30000);
  const res = await createRefund({
    transactionEndToEndId: endToEndId,
    correlationID: 'devolve311',
    value: 1500,
    comment: 'Produto em falta',
  });
  assert.is(res.status, 200, res.text);
  const refund = res.body.refund;
  assert.match(refund.returnIdentification, /^D99999999\d{12}[a-zA-Z0-9]{11}$/);
  assert.equal(refund, {
    status: 'IN_PROCESSING',
    value: 1500,
    correlationID: 'devolve311',
    endToEndId: refund.returnIdentification,
    time: refund.time,
    comment: 'Produto em falta',
    refundId: 'devolve311',
    returnIdentification: refund.returnIdentification,
    transactionEndToEndId: endToEndId,
  });

  const devolucao = await server.client.get(`/pix/v2/pix/${endToEndId}/devolucao/devolve311`, { auth: bearer });
  assert.is(devolucao.status, 200, devolucao.text);
  assert.is(devolucao.body.rtrId, refund.returnIdentification);
  assert.is(devolucao.body.valor, '15.00');

  // The same request again answers the same refund; another one under that correlationID is refused.
  const again = await createRefund({
    transactionEndToEndId: endToEndId,
    correlationID: 'devolve311',
    value: 1500,
    comment: 'Produto em falta',
  });
  assert.equal(again.body, res.body);
  const clash = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'devolve311', value: 1600 });
  assert.is(clash.status, 400);
  assert.equal(clash.body, { error: 'A refund with this correlationID already exists' });

  await server.services.jobs.runNow(SETTLEMENT_JOB);
  const byCorrelation = await getRefund('devolve311');
  assert.is(byCorrelation.status, 200, byCorrelation.text);
  assert.equal(byCorrelation.body, { pixTransactionRefund: { ...refund, status: 'CONFIRMED' } });

  const account = await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID });
  assert.is(account.body.account.balance.total, 30000 - 1500);
});

test('without a value the whole refundable rest goes back; then nothing is left', async () => {
  const endToEndId = await pixIn(acme, 2500);
  const first = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'parcial-1', value: 1000 });
  assert.is(first.status, 200, first.text);
  const rest = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'resto-1' });
  assert.is(rest.status, 200, rest.text);
  assert.is(rest.body.refund.value, 1500);
  const more = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'resto-2' });
  assert.is(more.status, 400);
  assert.equal(more.body, { error: 'The transaction has no refundable value left' });
  const over = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'resto-3', value: 1 });
  assert.equal(over.body, { error: 'Refund value exceeds the refundable value of the transaction' });
});

test('a correlationID that does not fit a devolution id is kept; the refund is found by either id', async () => {
  const endToEndId = await pixIn(acme, 900);
  const res = await createRefund({
    transactionEndToEndId: endToEndId,
    correlationID: 'estorno/pedido 7#ç',
    value: 100,
  });
  assert.is(res.status, 200, res.text);
  const { refundId, correlationID } = res.body.refund;
  assert.is(correlationID, 'estorno/pedido 7#ç');
  assert.match(refundId, /^[a-zA-Z0-9]{32}$/);
  const byId = await getRefund(refundId);
  const byCorrelation = await getRefund(correlationID);
  assert.is(byId.status, 200, byId.text);
  assert.equal(byId.body, byCorrelation.body);
});

test('refunds of charges and devolutions of the Pix API are listed too, newest first, with a time range', async () => {
  const company = await createCompany(server.client, { name: 'Lista de Devolucoes' });
  const token = await pixToken(server.client, company);
  const made = await makeCob(server, company, { value: 5000, correlationId: 'pedido-lista-1' });
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: made.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  const viaCharge = await server.client.post(
    '/api/v1/charge/pedido-lista-1/refund',
    { correlationID: 'via-charge', value: 100 },
    { auth: company.appID },
  );
  assert.is(viaCharge.status, 200, viaCharge.text);
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 60 }, { auth: company.appID });
  const viaPix = await server.client.put(
    `/pix/v2/pix/${paid.body.endToEndId}/devolucao/VIAPIX1`,
    { valor: '2.00' },
    { auth: token },
  );
  assert.is(viaPix.status, 201, viaPix.text);

  const list = await server.client.get('/api/v1/refund', { auth: company.appID });
  assert.is(list.status, 200, list.text);
  assert.equal(
    list.body.refunds.map((r: { correlationID: string; value: number }) => [r.correlationID, r.value]),
    [
      ['VIAPIX1', 200],
      ['via-charge', 100],
    ],
  );
  assert.equal(list.body.pageInfo, { skip: 0, limit: 20, totalCount: 2, hasPreviousPage: false, hasNextPage: false });

  const since = encodeURIComponent(viaPix.body.horario.solicitacao);
  const recent = await server.client.get(`/api/v1/refund?start=${since}`, { auth: company.appID });
  assert.equal(
    recent.body.refunds.map((r: { correlationID: string }) => r.correlationID),
    ['VIAPIX1'],
  );
  const before = await server.client.get(`/api/v1/refund?end=${since}`, { auth: company.appID });
  assert.equal(
    before.body.refunds.map((r: { correlationID: string }) => r.correlationID),
    ['via-charge'],
  );
  const backwards = await server.client.get(`/api/v1/refund?start=${since}&end=2020-01-01T00:00:00Z`, {
    auth: company.appID,
  });
  assert.is(backwards.status, 400);
  const paged = await server.client.get('/api/v1/refund?skip=1&limit=1', { auth: company.appID });
  assert.equal(
    paged.body.refunds.map((r: { correlationID: string }) => r.correlationID),
    ['via-charge'],
  );
});

test("another company's Pix and refunds are answered like missing ones", async () => {
  const other = await createCompany(server.client, { name: 'Outra Loja' });
  const endToEndId = await pixIn(other, 700);
  const theirs = await createRefund(
    { transactionEndToEndId: endToEndId, correlationID: 'deles-1', value: 100 },
    other.appID,
  );
  assert.is(theirs.status, 200, theirs.text);

  const res = await createRefund({ transactionEndToEndId: endToEndId, correlationID: 'nao-meu', value: 100 });
  assert.is(res.status, 404);
  assert.equal(res.body, { error: 'Transaction not found' });
  const peek = await getRefund('deles-1');
  assert.is(peek.status, 404);
  assert.equal(peek.body, { error: 'Refund not found' });
  const missing = await createRefund({ transactionEndToEndId: 'E00000000202601010000abcdefghijk', correlationID: 'x' });
  assert.is(missing.status, 404);
});

test('bad bodies answer 400 with the field that is wrong', async () => {
  const noE2e = await createRefund({ correlationID: 'sem-e2e', value: 100 });
  assert.is(noE2e.status, 400);
  assert.ok(
    noE2e.body.details.some((d: { field: string }) => d.field === 'body.transactionEndToEndId'),
    noE2e.text,
  );
  const long = await createRefund({ transactionEndToEndId: 'E1', correlationID: 'longo', comment: 'x'.repeat(141) });
  assert.is(long.status, 400);
  const zero = await createRefund({ transactionEndToEndId: 'E1', correlationID: 'zero', value: 0 });
  assert.is(zero.status, 400);
});

test.run();
