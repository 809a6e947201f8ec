// Immediate charges (cob) of the Pix API: PUT with txid, POST, revisions kept and readable,
// removal, the standard's refusals, lists with every filter and the same record on the
// platform API.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { TXID, chargesCompany, decodeBrCode, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server, { name: 'Pão Dourado Padaria e Confeitaria' });
  other = await chargesCompany(server);
});
test.after(async () => server.close());

const auth = (c: ChargesCompany) => ({ auth: c.bearer });
const cobBody = (c: ChargesCompany, extra: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: '12345678909', nome: 'Mariana Costa Ribeiro' },
  valor: { original: '45.90' },
  chave: c.key,
  solicitacaoPagador: 'Pedido 10482 - retirada no balcao',
  ...extra,
});

test('PUT /cob/{txid} creates the charge with a location and a dynamic BR Code', async () => {
  const txid = TXID(1);
  const res = await server.client.put(`/pix/v2/cob/${txid}`, cobBody(acme), auth(acme));
  assert.is(res.status, 201, res.text);
  const cob = res.body;
  assert.is(cob.txid, txid);
  assert.is(cob.revisao, 0);
  assert.is(cob.status, 'ATIVA');
  assert.equal(cob.valor, { original: '45.90', modalidadeAlteracao: 0 });
  assert.is(cob.calendario.expiracao, 3600);
  assert.equal(cob.devedor, { cpf: '12345678909', nome: 'Mariana Costa Ribeiro' });
  assert.is(cob.chave, acme.key);
  assert.is(cob.loc.tipoCob, 'cob');
  // The official schema requires loc.txid in a cob's answer.
  assert.is(cob.loc.txid, txid);
  assert.match(cob.location, /^localhost:\d+\/qr\/v2\/[0-9a-f-]{36}$/);
  assert.is(cob.loc.location, cob.location);
  const code = decodeBrCode(cob.pixCopiaECola);
  assert.is(code.kind, 'dynamic');
  assert.is(code.locationUrl, cob.location);
  assert.is(code.pointOfInitiation, '12');
  assert.is(code.amount, 4590);
  assert.is(code.merchantName, 'Pao Dourado Padaria e Con');
  assert.is(code.merchantCity, 'SAO PAULO');
  assert.is(code.txid, '***');
});

test('POST /cob assigns a txid; defaults: expiracao 86400, modalidadeAlteracao 0', async () => {
  const res = await server.client.post(
    '/pix/v2/cob',
    { calendario: {}, valor: { original: '10.00' }, chave: acme.key },
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  assert.match(res.body.txid, /^[A-Za-z0-9]{32}$/);
  assert.is(res.body.calendario.expiracao, 86400);
  assert.equal(res.body.valor, { original: '10.00', modalidadeAlteracao: 0 });
  const got = await server.client.get(`/pix/v2/cob/${res.body.txid}`, auth(acme));
  assert.is(got.status, 200, got.text);
  assert.equal(got.body, res.body);
});

test('PATCH revises (revisao + 1), every revision stays readable; loc alone is no revision', async () => {
  const txid = TXID(2);
  await server.client.put(`/pix/v2/cob/${txid}`, cobBody(acme), auth(acme));
  const r1 = await server.client.patch(
    `/pix/v2/cob/${txid}`,
    { valor: { original: '52.40' }, solicitacaoPagador: 'Pedido 10482 com dois cafes' },
    auth(acme),
  );
  assert.is(r1.status, 200, r1.text);
  assert.is(r1.body.revisao, 1);
  assert.is(r1.body.valor.original, '52.40');
  assert.is(r1.body.calendario.expiracao, 3600);
  assert.is(decodeBrCode(r1.body.pixCopiaECola).amount, 5240);

  const loc = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(acme));
  const moved = await server.client.patch(`/pix/v2/cob/${txid}`, { loc: { id: loc.body.id } }, auth(acme));
  assert.is(moved.status, 200, moved.text);
  assert.is(moved.body.revisao, 1);
  assert.is(moved.body.loc.id, loc.body.id);
  assert.is(moved.body.location, loc.body.location);

  const r0 = await server.client.get(`/pix/v2/cob/${txid}?revisao=0`, auth(acme));
  assert.is(r0.status, 200, r0.text);
  assert.is(r0.body.revisao, 0);
  assert.is(r0.body.valor.original, '45.90');
  assert.is(r0.body.solicitacaoPagador, 'Pedido 10482 - retirada no balcao');
  const current = await server.client.get(`/pix/v2/cob/${txid}`, auth(acme));
  assert.is(current.body.revisao, 1);
  assert.is(current.body.valor.original, '52.40');
  const missing = await server.client.get(`/pix/v2/cob/${txid}?revisao=7`, auth(acme));
  assert.is(missing.status, 400);
  assert.is(missing.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida');
});

test('PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR: only alone, only while ATIVA', async () => {
  const txid = TXID(3);
  await server.client.put(`/pix/v2/cob/${txid}`, cobBody(acme), auth(acme));
  const mixed = await server.client.patch(
    `/pix/v2/cob/${txid}`,
    { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } },
    auth(acme),
  );
  assert.is(mixed.status, 400);
  assert.is(mixed.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
  assert.is(mixed.body.violacoes[0].propriedade, 'status');
  const removed = await server.client.patch(
    `/pix/v2/cob/${txid}`,
    { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    auth(acme),
  );
  assert.is(removed.status, 200, removed.text);
  assert.is(removed.body.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
  assert.is(removed.body.revisao, 1);
  const again = await server.client.patch(`/pix/v2/cob/${txid}`, { valor: { original: '2.00' } }, auth(acme));
  assert.is(again.status, 400);
  const replaced = await server.client.put(
    `/pix/v2/cob/${txid}`,
    cobBody(acme, { valor: { original: '9.99' } }),
    auth(acme),
  );
  assert.is(replaced.status, 400);
  // resending the same object is not a change
  const same = await server.client.put(`/pix/v2/cob/${txid}`, cobBody(acme), auth(acme));
  assert.is(same.status, 201, same.text);
  assert.is(same.body.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
  const platform = await server.client.get(`/api/v1/charge/${txid}`, { auth: acme.appID });
  assert.is(platform.body.charge.status, 'EXPIRED');
});

test('PUT on an ATIVA charge replaces it as a new revision', async () => {
  const txid = TXID(4);
  await server.client.put(`/pix/v2/cob/${txid}`, cobBody(acme), auth(acme));
  const res = await server.client.put(
    `/pix/v2/cob/${txid}`,
    cobBody(acme, { calendario: { expiracao: 600 }, solicitacaoPagador: undefined }),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  assert.is(res.body.revisao, 1);
  assert.is(res.body.calendario.expiracao, 600);
  assert.is(res.body.solicitacaoPagador, undefined);
});

test('refusals of the standard: CobOperacaoInvalida with violacoes', async () => {
  const put = (txid: string, body: unknown) => server.client.put(`/pix/v2/cob/${txid}`, body, auth(acme));
  const cases: Array<[unknown, string]> = [
    [cobBody(acme, { valor: { original: '0.00' } }), 'valor.original'],
    [cobBody(acme, { chave: other.key }), 'chave'],
    [cobBody(acme, { chave: 'nobody@example.com' }), 'chave'],
    [cobBody(acme, { devedor: { cpf: '12345678900', nome: 'X' } }), 'devedor.cpf'],
    [cobBody(acme, { devedor: { cnpj: '12345678000100', nome: 'X' } }), 'devedor.cnpj'],
    [cobBody(acme, { calendario: { expiracao: 0 } }), 'body.calendario.expiracao'],
  ];
  let n = 10;
  for (const [body, field] of cases) {
    const res = await put(TXID(n++), body);
    assert.is(res.status, 400, `${field}: ${res.text}`);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    assert.ok(
      res.body.violacoes.some((v: any) => v.propriedade === field),
      `${field}: ${res.text}`,
    );
  }
  const badTxid = await server.client.put('/pix/v2/cob/short', cobBody(acme), auth(acme));
  assert.is(badTxid.status, 400);
  // a location of type cobv, or used by another charge
  const cobvLoc = await server.client.post('/pix/v2/loc', { tipoCob: 'cobv' }, auth(acme));
  const wrongType = await put(TXID(20), cobBody(acme, { loc: { id: cobvLoc.body.id } }));
  assert.is(wrongType.status, 400);
  assert.is(wrongType.body.violacoes[0].propriedade, 'loc.id');
  const first = await put(TXID(21), cobBody(acme));
  const used = await put(TXID(22), cobBody(acme, { loc: { id: first.body.loc.id } }));
  assert.is(used.status, 400);
  assert.match(used.body.violacoes[0].razao, /in use/);
  const othersLoc = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(other));
  const foreign = await put(TXID(23), cobBody(acme, { loc: { id: othersLoc.body.id } }));
  assert.is(foreign.status, 400);
});

test('saque and troco: the payer pays original plus the withdrawal', async () => {
  const saque = await server.client.post(
    '/pix/v2/cob',
    {
      calendario: {},
      valor: {
        original: '0.00',
        retirada: { saque: { valor: '200.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '13370835' } },
      },
      chave: acme.key,
    },
    auth(acme),
  );
  assert.is(saque.status, 201, saque.text);
  assert.is(decodeBrCode(saque.body.pixCopiaECola).amount, 20000);
  const troco = await server.client.post(
    '/pix/v2/cob',
    {
      calendario: {},
      valor: {
        original: '30.00',
        retirada: { troco: { valor: '20.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '13370835' } },
      },
      chave: acme.key,
    },
    auth(acme),
  );
  assert.is(troco.status, 201, troco.text);
  const platform = await server.client.get(`/api/v1/charge/${troco.body.txid}`, { auth: acme.appID });
  assert.is(platform.body.charge.value, 5000);
  // an amount the payer may change is not written into the code
  const open = await server.client.post(
    '/pix/v2/cob',
    { calendario: {}, valor: { original: '89.70', modalidadeAlteracao: 1 }, chave: acme.key },
    auth(acme),
  );
  assert.is(open.status, 201, open.text);
  assert.is(decodeBrCode(open.body.pixCopiaECola).amount, undefined);
  // change of 0.00 that the payer chooses (the standard's own Pix Troco example)
  const chosen = await server.client.post(
    '/pix/v2/cob',
    {
      valor: {
        original: '30.00',
        retirada: {
          troco: {
            valor: '0.00',
            modalidadeAlteracao: 1,
            modalidadeAgente: 'AGTEC',
            prestadorDoServicoDeSaque: '13370835',
          },
        },
      },
      chave: acme.key,
    },
    auth(acme),
  );
  assert.is(chosen.status, 201, chosen.text);
  assert.is(decodeBrCode(chosen.body.pixCopiaECola).amount, undefined);
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode: chosen.body.pixCopiaECola,
    value: 5000,
    payer: { name: 'Ana', taxID: '52998224725' },
  });
  assert.is(paid.status, 200, paid.text);
  const pix = await server.client.get(`/pix/v2/pix/${paid.body.endToEndId}`, auth(acme));
  assert.is(pix.body.componentesValor.troco.valor, '20.00', pix.text);
  const fixedZero = await server.client.post(
    '/pix/v2/cob',
    {
      valor: {
        original: '30.00',
        retirada: { troco: { valor: '0.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '13370835' } },
      },
      chave: acme.key,
    },
    auth(acme),
  );
  assert.is(fixedZero.status, 400, fixedZero.text);
});

test('another company sees no charge: 404 CobNaoEncontrado', async () => {
  const res = await server.client.get(`/pix/v2/cob/${TXID(1)}`, auth(other));
  assert.is(res.status, 404);
  assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado');
  const patch = await server.client.patch(`/pix/v2/cob/${TXID(1)}`, { valor: { original: '1.00' } }, auth(other));
  assert.is(patch.status, 404);
  const platform = await server.client.get(`/api/v1/charge/${TXID(1)}`, { auth: other.appID });
  assert.is(platform.status, 404);
});

test('a cob is a platform DYNAMIC charge: same txid, value, status and BR Code', async () => {
  const cob = await server.client.get(`/pix/v2/cob/${TXID(1)}`, auth(acme));
  const res = await server.client.get(`/api/v1/charge/${TXID(1)}`, { auth: acme.appID });
  assert.is(res.status, 200, res.text);
  const charge = res.body.charge;
  assert.is(charge.type, 'DYNAMIC');
  assert.is(charge.status, 'ACTIVE');
  assert.is(charge.value, 4590);
  assert.is(charge.identifier, TXID(1));
  assert.is(charge.transactionID, TXID(1));
  assert.is(charge.correlationID, TXID(1));
  assert.is(charge.brCode, cob.body.pixCopiaECola);
  assert.is(charge.comment, 'Pedido 10482 - retirada no balcao');
  assert.equal(charge.customer, { name: 'Mariana Costa Ribeiro', taxID: { taxID: '12345678909', type: 'BR:CPF' } });
  assert.is(charge.expiresIn, 3600);
  assert.is(new Date(charge.expiresDate).getTime() - new Date(cob.body.calendario.criacao).getTime(), 3600_000);
  const list = await server.client.get('/api/v1/charge?limit=100', { auth: acme.appID });
  assert.ok(list.body.charges.some((c: any) => c.identifier === TXID(1)));
});

test('GET /cob lists by period with cpf, cnpj, locationPresente, status and paginacao', async () => {
  const fresh = await chargesCompany(server);
  const start = new Date(Date.now() - 60_000).toISOString();
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    const devedor = i % 2 === 0 ? { cpf: '12345678909', nome: 'Ana' } : { cnpj: '11222333000181', nome: 'Empresa' };
    const res = await server.client.put(`/pix/v2/cob/${TXID(100 + i)}`, cobBody(fresh, { devedor }), auth(fresh));
    assert.is(res.status, 201, res.text);
    made.push(res.body.txid);
  }
  await server.client.patch(`/pix/v2/cob/${made[4]}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, auth(fresh));
  const loc = await server.client.get(`/pix/v2/cob/${made[3]}`, auth(fresh));
  await server.client.delete(`/pix/v2/loc/${loc.body.loc.id}/txid`, auth(fresh));
  const end = new Date(Date.now() + 60_000).toISOString();
  const list = (q: string) => server.client.get(`/pix/v2/cob?inicio=${start}&fim=${end}${q}`, auth(fresh));

  const all = await list('');
  assert.is(all.status, 200, all.text);
  assert.equal(
    all.body.cobs.map((c: any) => c.txid),
    made,
  );
  assert.equal(all.body.parametros.paginacao, {
    paginaAtual: 0,
    itensPorPagina: 100,
    quantidadeDePaginas: 1,
    quantidadeTotalDeItens: 5,
  });
  assert.is(all.body.parametros.inicio, start);
  assert.equal(
    (await list('&cpf=12345678909')).body.cobs.map((c: any) => c.txid),
    [made[0], made[2], made[4]],
  );
  assert.equal(
    (await list('&cnpj=11222333000181')).body.cobs.map((c: any) => c.txid),
    [made[1], made[3]],
  );
  assert.equal(
    (await list('&locationPresente=false')).body.cobs.map((c: any) => c.txid),
    [made[3]],
  );
  assert.equal((await list('&locationPresente=true')).body.cobs.length, 4);
  assert.equal(
    (await list('&status=REMOVIDA_PELO_USUARIO_RECEBEDOR')).body.cobs.map((c: any) => c.txid),
    [made[4]],
  );
  const page = await list('&paginacao.paginaAtual=1&paginacao.itensPorPagina=2');
  assert.equal(
    page.body.cobs.map((c: any) => c.txid),
    [made[2], made[3]],
  );
  assert.equal(page.body.parametros.paginacao, {
    paginaAtual: 1,
    itensPorPagina: 2,
    quantidadeDePaginas: 3,
    quantidadeTotalDeItens: 5,
  });
  const empty = await server.client.get(
    `/pix/v2/cob?inicio=2020-01-01T00:00:00Z&fim=2020-01-02T00:00:00Z`,
    auth(fresh),
  );
  assert.equal(empty.body.parametros.paginacao, {
    paginaAtual: 0,
    itensPorPagina: 100,
    quantidadeDePaginas: 1,
    quantidadeTotalDeItens: 0,
  });

  for (const q of [
    '&cpf=12345678909&cnpj=11222333000181',
    '&paginacao.itensPorPagina=0',
    '&paginacao.paginaAtual=-1',
  ]) {
    const bad = await list(q);
    assert.is(bad.status, 400, q);
    assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida');
  }
  const reversed = await server.client.get(`/pix/v2/cob?inicio=${end}&fim=${start}`, auth(fresh));
  assert.is(reversed.status, 400);
  const noPeriod = await server.client.get('/pix/v2/cob', auth(fresh));
  assert.is(noPeriod.status, 400);
});

test('a cob with retirada cannot let the payer change the amount (modalidadeAlteracao 1): CobOperacaoInvalida', async () => {
  const troco = { valor: '20.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '13370835' };
  for (const retirada of [{ troco }, { saque: troco }]) {
    const original = 'saque' in retirada ? '0.00' : '30.00';
    const res = await server.client.post(
      '/pix/v2/cob',
      { calendario: {}, valor: { original, modalidadeAlteracao: 1, retirada }, chave: acme.key },
      auth(acme),
    );
    assert.is(res.status, 400, res.text);
    assert.match(res.body.type, /CobOperacaoInvalida$/);
    assert.ok(
      res.body.violacoes.some((v: { propriedade: string }) => v.propriedade.endsWith('valor.modalidadeAlteracao')),
      res.text,
    );
  }
});

test.run();
