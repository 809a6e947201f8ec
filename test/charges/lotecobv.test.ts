// Batches of due-date charges (lotecobv): each item ends CRIADA or NEGADA with its problem;
// the set of charges is fixed (PUT: exactly the original set; PATCH: a subset); items
// refused are not charges; a txid of a refused item cannot be used by PUT /cobv.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { TXID, chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
  other = await chargesCompany(server);
});
test.after(async () => server.close());

const auth = (c: ChargesCompany = acme) => ({ auth: c.bearer });
const item = (txid: string, extra: Record<string, unknown> = {}) => ({
  txid,
  calendario: { dataDeVencimento: '2027-04-10', validadeAposVencimento: 30 },
  devedor: { cpf: '70214539814', nome: 'Joao Pedro Almeida' },
  valor: { original: '1450.00', multa: { modalidade: 2, valorPerc: '2.00' } },
  chave: acme.key,
  solicitacaoPagador: 'Mensalidade de abril',
  ...extra,
});

test('PUT creates the batch; each item becomes a cobv or is NEGADA with its problema', async () => {
  const res = await server.client.put(
    '/pix/v2/lotecobv/318',
    { descricao: 'Mensalidades de abril', cobsv: [item(TXID(1)), item(TXID(2), { chave: other.key }), item(TXID(3))] },
    auth(),
  );
  assert.is(res.status, 202, res.text);
  const lote = await server.client.get('/pix/v2/lotecobv/318', auth());
  assert.is(lote.status, 200, lote.text);
  assert.is(lote.body.id, 318);
  assert.is(lote.body.descricao, 'Mensalidades de abril');
  assert.equal(
    lote.body.cobsv.map((c: any) => [c.txid, c.status]),
    [
      [TXID(1), 'CRIADA'],
      [TXID(2), 'NEGADA'],
      [TXID(3), 'CRIADA'],
    ],
  );
  const denied = lote.body.cobsv[1];
  assert.is(denied.problema.type, 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida');
  assert.is(denied.problema.status, 400);
  assert.is(denied.problema.violacoes[0].propriedade, 'chave');
  assert.ok(lote.body.cobsv[0].criacao);

  assert.is((await server.client.get(`/pix/v2/cobv/${TXID(1)}`, auth())).status, 200);
  assert.is((await server.client.get(`/pix/v2/cobv/${TXID(2)}`, auth())).status, 404);
  const start = new Date(Date.now() - 60_000).toISOString();
  const end = new Date(Date.now() + 60_000).toISOString();
  const listed = await server.client.get(`/pix/v2/cobv?inicio=${start}&fim=${end}&loteCobVId=318`, auth());
  assert.equal(
    listed.body.cobs.map((c: any) => c.txid),
    [TXID(1), TXID(3)],
  );
  assert.is(listed.body.parametros.loteCobVId, 318);
  // a refused item's txid cannot be used outside its batch
  const put = await server.client.put(`/pix/v2/cobv/${TXID(2)}`, { ...item(TXID(2)), txid: undefined }, auth());
  assert.is(put.status, 400);
  assert.match(put.body.violacoes[0].razao, /batch/);
});

test('PUT again with exactly the original set reprocesses it; another set is refused', async () => {
  const changed = await server.client.put(
    '/pix/v2/lotecobv/318',
    {
      descricao: 'Mensalidades de abril (corrigido)',
      cobsv: [item(TXID(3), { valor: { original: '1500.00' } }), item(TXID(1)), item(TXID(2))],
    },
    auth(),
  );
  assert.is(changed.status, 202, changed.text);
  const lote = await server.client.get('/pix/v2/lotecobv/318', auth());
  assert.is(lote.body.descricao, 'Mensalidades de abril (corrigido)');
  assert.equal(
    lote.body.cobsv.map((c: any) => c.status),
    ['CRIADA', 'CRIADA', 'CRIADA'],
  );
  const three = await server.client.get(`/pix/v2/cobv/${TXID(3)}`, auth());
  assert.is(three.body.revisao, 1);
  assert.is(three.body.valor.original, '1500.00');

  for (const cobsv of [
    [item(TXID(1)), item(TXID(2))],
    [item(TXID(1)), item(TXID(2)), item(TXID(3)), item(TXID(4))],
  ]) {
    const res = await server.client.put('/pix/v2/lotecobv/318', { descricao: 'x', cobsv }, auth());
    assert.is(res.status, 400);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida');
  }
  // a new batch with a charge that exists is refused
  const exists = await server.client.put(
    '/pix/v2/lotecobv/319',
    { descricao: 'x', cobsv: [item(TXID(1)), item(TXID(9))] },
    auth(),
  );
  assert.is(exists.status, 400);
  assert.is(exists.body.violacoes[0].valor, TXID(1));
  assert.is((await server.client.get('/pix/v2/lotecobv/319', auth())).status, 404);
  const dup = await server.client.put(
    '/pix/v2/lotecobv/320',
    { descricao: 'x', cobsv: [item(TXID(9)), item(TXID(9))] },
    auth(),
  );
  assert.is(dup.status, 400);
  const badId = await server.client.put('/pix/v2/lotecobv/abc', { descricao: 'x', cobsv: [item(TXID(9))] }, auth());
  assert.is(badId.status, 400);
});

test('PATCH revises a subset; a charge outside the batch is refused; removal through PATCH', async () => {
  const res = await server.client.patch(
    '/pix/v2/lotecobv/318',
    {
      cobsv: [
        { txid: TXID(1), calendario: { dataDeVencimento: '2027-04-15' } },
        { txid: TXID(3), status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
      ],
    },
    auth(),
  );
  assert.is(res.status, 202, res.text);
  const one = await server.client.get(`/pix/v2/cobv/${TXID(1)}`, auth());
  assert.is(one.body.calendario.dataDeVencimento, '2027-04-15');
  assert.is(one.body.revisao, 1);
  assert.is(
    (await server.client.get(`/pix/v2/cobv/${TXID(3)}`, auth())).body.status,
    'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  );
  // a refused change is NEGADA with its problem; the charge stays as it was
  await server.client.patch(
    '/pix/v2/lotecobv/318',
    { cobsv: [{ txid: TXID(1), valor: { original: '0.00' } }] },
    auth(),
  );
  const lote = await server.client.get('/pix/v2/lotecobv/318', auth());
  assert.is(lote.body.cobsv[0].status, 'NEGADA');
  assert.match(lote.body.cobsv[0].problema.detail, /valor.original|above zero/);
  const kept = await server.client.get(`/pix/v2/cobv/${TXID(1)}`, auth());
  assert.is(kept.body.revisao, 1);
  assert.is(kept.body.status, 'ATIVA');
  // the charge can still be revised, by the batch or on its own
  const again = await server.client.patch(`/pix/v2/cobv/${TXID(1)}`, { valor: { original: '99.00' } }, auth());
  assert.is(again.status, 200, again.text);
  assert.is(again.body.revisao, 2);

  const outside = await server.client.patch(
    '/pix/v2/lotecobv/318',
    { cobsv: [{ txid: TXID(7), valor: { original: '1.00' } }] },
    auth(),
  );
  assert.is(outside.status, 400);
  assert.is(outside.body.type, 'https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida');
  const missing = await server.client.patch('/pix/v2/lotecobv/999', { cobsv: [] }, auth());
  assert.is(missing.status, 404);
  assert.is(missing.body.type, 'https://pix.bcb.gov.br/api/v2/error/LoteCobVNaoEncontrado');
  assert.is((await server.client.get('/pix/v2/lotecobv/318', auth(other))).status, 404);
});

test('GET /lotecobv lists batches of the period with paging', async () => {
  await server.client.put('/pix/v2/lotecobv/400', { descricao: 'Outro lote', cobsv: [item(TXID(40))] }, auth());
  const start = new Date(Date.now() - 60_000).toISOString();
  const end = new Date(Date.now() + 60_000).toISOString();
  const res = await server.client.get(`/pix/v2/lotecobv?inicio=${start}&fim=${end}`, auth());
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.lotes.map((l: any) => l.id),
    [318, 400],
  );
  assert.equal(
    res.body.lotes[1].cobsv.map((c: any) => c.status),
    ['CRIADA'],
  );
  const page = await server.client.get(
    `/pix/v2/lotecobv?inicio=${start}&fim=${end}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`,
    auth(),
  );
  assert.equal(
    page.body.lotes.map((l: any) => l.id),
    [400],
  );
  assert.equal(page.body.parametros.paginacao, {
    paginaAtual: 1,
    itensPorPagina: 1,
    quantidadeDePaginas: 2,
    quantidadeTotalDeItens: 2,
  });
  const bad = await server.client.get(`/pix/v2/lotecobv?inicio=${end}&fim=${start}`, auth());
  assert.is(bad.status, 400);
  assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/LoteCobVConsultaInvalida');
});

test.run();
