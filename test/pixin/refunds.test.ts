// Refunds of a charge (platform API): the same devolution as the Pix API's, shown in both,
// with the correlationID as its id when it fits and kept otherwise.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SETTLEMENT_JOB } from '../../src/pixin/devolution-settlement';
import { createCompany, type TestCompany } from '../support/fixtures';
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

async function paidCharge(correlationId: string, value: number) {
  const made = await makeCob(server, acme, { value, correlationId });
  const res = await server.client.post('/api/v1/sandbox/pay', { brCode: made.brCode, payer });
  assert.is(res.status, 200, res.text);
  return { ...made, endToEndId: res.body.endToEndId as string };
}

const refund = (id: string, body: unknown, auth = acme.appID) =>
  server.client.post(`/api/v1/charge/${encodeURIComponent(id)}/refund`, body, { auth });
const refunds = (id: string, auth = acme.appID) =>
  server.client.get(`/api/v1/charge/${encodeURIComponent(id)}/refund`, { auth });

test('a refund of a charge is a devolution of its Pix, in both APIs, and settles', async () => {
  const { charge, endToEndId } = await paidCharge('pedido-2026-000184', 15990);
  const res = await refund('pedido-2026-000184', {
    correlationID: 'estorno184a',
    value: 5990,
    comment: 'Troca de tamanho',
  });
  assert.is(res.status, 200, res.text);
  const created = res.body.refund;
  assert.match(created.endToEndId, /^D99999999/);
  assert.equal(created, {
    status: 'IN_PROCESSING',
    value: 5990,
    correlationID: 'estorno184a',
    endToEndId: created.endToEndId,
    time: created.time,
    comment: 'Troca de tamanho',
  });

  // The Pix API sees the same devolution, under the correlationID as its id.
  const devolucao = await server.client.get(`/pix/v2/pix/${endToEndId}/devolucao/estorno184a`, { auth: bearer });
  assert.is(devolucao.status, 200, devolucao.text);
  assert.equal(devolucao.body, {
    id: 'estorno184a',
    rtrId: created.endToEndId,
    valor: '59.90',
    natureza: 'ORIGINAL',
    descricao: 'Troca de tamanho',
    horario: { solicitacao: created.time },
    status: 'EM_PROCESSAMENTO',
  });

  // A devolution made through the Pix API shows as a refund of the charge.
  const viaPix = await server.client.put(
    `/pix/v2/pix/${endToEndId}/devolucao/DEVPIX1`,
    { valor: '20.00' },
    { auth: bearer },
  );
  assert.is(viaPix.status, 201);

  await server.services.jobs.runNow(SETTLEMENT_JOB);
  const list = await refunds(charge.id);
  assert.is(list.status, 200, list.text);
  assert.equal(list.body, {
    refunds: [
      { ...created, status: 'CONFIRMED' },
      {
        status: 'CONFIRMED',
        value: 2000,
        correlationID: 'DEVPIX1',
        endToEndId: viaPix.body.rtrId,
        time: viaPix.body.horario.solicitacao,
      },
    ],
    pageInfo: { skip: 0, limit: 20, totalCount: 2, hasPreviousPage: false, hasNextPage: false },
  });
  const byCorrelation = await refunds('pedido-2026-000184');
  assert.equal(byCorrelation.body, list.body);
  const paged = await server.client.get(`/api/v1/charge/${charge.id}/refund?skip=1&limit=1`, { auth: acme.appID });
  assert.equal(
    paged.body.refunds.map((r: { correlationID: string }) => r.correlationID),
    ['DEVPIX1'],
  );
  assert.equal(paged.body.pageInfo, { skip: 1, limit: 1, totalCount: 2, hasPreviousPage: true, hasNextPage: false });

  const balance = await server.client.get(`/api/v1/account/${acme.accountId}`, { auth: acme.appID });
  assert.equal(balance.body.account.balance, {
    total: 15990 - 5990 - 2000,
    blocked: 0,
    available: 8000,
    blockedBySecurity: 0,
    blockedByWithdrawSafety: 0,
  });
});

test('a correlationID that does not fit a devolution id is kept; the id is generated', async () => {
  const { endToEndId } = await paidCharge('pedido/com barra#1', 1000);
  const res = await refund('pedido/com barra#1', { correlationID: 'estorno-pedido-184-1', value: 100 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.refund.correlationID, 'estorno-pedido-184-1');
  const pix = await server.client.get(`/pix/v2/pix/${endToEndId}`, { auth: bearer });
  const [devolucao] = pix.body.devolucoes;
  assert.match(devolucao.id, /^[a-zA-Z0-9]{32}$/);
  assert.is(devolucao.rtrId, res.body.refund.endToEndId);
});

test('without value the whole refundable value is refunded; nothing left is refused', async () => {
  const { charge } = await paidCharge('inteiro-1', 4321);
  assert.is((await refund(charge.id, { correlationID: 'parte1', value: 1000 })).status, 200);
  const rest = await refund(charge.id, { correlationID: 'resto1' });
  assert.is(rest.status, 200);
  assert.is(rest.body.refund.value, 3321);
  const more = await refund(charge.id, { correlationID: 'resto2' });
  assert.is(more.status, 400);
  assert.equal(more.body, { error: 'The charge has no refundable value left' });
  const over = await refund(charge.id, { correlationID: 'resto3', value: 1 });
  assert.equal(over.body, { error: 'Refund value exceeds the refundable value of the charge' });
});

test('the same correlationID answers the same refund; reused for another refund it is refused', async () => {
  const { charge } = await paidCharge('idem-1', 5000);
  const first = await refund(charge.id, { correlationID: 'idem-estorno', value: 700, comment: 'a' });
  const again = await refund(charge.id, { correlationID: 'idem-estorno', value: 700, comment: 'a' });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  const other = await refund(charge.id, { correlationID: 'idem-estorno', value: 800 });
  assert.is(other.status, 400);
  assert.equal(other.body, { error: 'A refund with this correlationID already exists' });
  const list = await refunds(charge.id);
  assert.is(list.body.refunds.length, 1);
});

test("refused: unpaid charge, unknown charge, another company's charge, long comment", async () => {
  const unpaid = await makeCob(server, acme, { value: 1000, correlationId: 'nao-pago' });
  const res = await refund(unpaid.charge.id, { correlationID: 'x1', value: 100 });
  assert.is(res.status, 400);
  assert.equal(res.body, { error: 'Only completed charges can be refunded' });
  assert.equal((await refunds('nao-pago')).body.refunds, []);

  const unknown = await refund('nao-existe', { correlationID: 'x2', value: 100 });
  assert.is(unknown.status, 404);
  assert.equal(unknown.body, { error: 'Charge not found' });
  assert.is((await refunds('nao-existe')).status, 404);

  const { charge } = await paidCharge('de-outra', 1000);
  const other = await createCompany(server.client, { name: 'Outra' });
  const theirs = await refund(charge.id, { correlationID: 'x3', value: 100 }, other.appID);
  assert.is(theirs.status, 404);
  assert.equal(theirs.body, { error: 'Charge not found' });
  assert.is((await refunds(charge.id, other.appID)).status, 404);

  const long = await refund(charge.id, { correlationID: 'x4', value: 100, comment: 'x'.repeat(141) });
  assert.is(long.status, 400);
  assert.is(long.body.error, 'Validation error');
  const huge = await refund(charge.id, { correlationID: 'x5', value: 1e20 });
  assert.is(huge.status, 400);
  assert.equal(huge.body.details, [{ field: 'body.value', message: 'must be <= 999999999999' }]);
});

test.run();
