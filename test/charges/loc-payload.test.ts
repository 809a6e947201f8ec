// Payload locations (loc) and the open payloads they serve (/qr/v2): one charge at a time, the
// URL kept for life, the JWS signed with the key of /.well-known/jwks.json, 404 vs 410.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { TXID, chargesCompany, fetchPayload, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
  other = await chargesCompany(server);
});
test.after(async () => server.close());

const auth = (c: ChargesCompany) => ({ auth: c.bearer });
const cob = (c: ChargesCompany, extra: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cnpj: '11222333000181', nome: 'Oficina Mecanica Torque Ltda' },
  valor: { original: '1280.00' },
  chave: c.key,
  solicitacaoPagador: 'Encomenda de salgados',
  infoAdicionais: [{ nome: 'Pedido', valor: '10491' }],
  ...extra,
});

test('POST /loc, GET /loc/{id}: a location with its URL, then its txid once linked', async () => {
  const created = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(acme));
  assert.is(created.status, 201, created.text);
  const loc = created.body;
  assert.type(loc.id, 'number');
  assert.is(loc.tipoCob, 'cob');
  assert.match(loc.location, new RegExp(`^localhost:\\d+/qr/v2/[0-9a-f-]{36}$`));
  assert.is(created.headers.get('location'), loc.location);
  const read = await server.client.get(`/pix/v2/loc/${loc.id}`, auth(acme));
  assert.equal(read.body, loc);

  const charge = await server.client.put(`/pix/v2/cob/${TXID(1)}`, cob(acme, { loc: { id: loc.id } }), auth(acme));
  assert.is(charge.status, 201, charge.text);
  // A cob's loc carries its txid (the official schema requires it there).
  assert.equal(charge.body.loc, { ...loc, txid: TXID(1) });
  assert.is(charge.body.location, loc.location);
  const linked = await server.client.get(`/pix/v2/loc/${loc.id}`, auth(acme));
  assert.equal(linked.body, { ...loc, txid: TXID(1) });

  const cobv = await server.client.post('/pix/v2/loc', { tipoCob: 'cobv' }, auth(acme));
  assert.match(cobv.body.location, /\/qr\/v2\/cobv\/[0-9a-f-]{36}$/);
  const bad = await server.client.post('/pix/v2/loc', { tipoCob: 'rec' }, auth(acme));
  assert.is(bad.status, 400);
  assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationOperacaoInvalida');
  for (const id of ['999999', 'abc', String(loc.id)]) {
    const res = await server.client.get(`/pix/v2/loc/${id}`, auth(id === String(loc.id) ? other : acme));
    assert.is(res.status, 404, id);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationNaoEncontrado');
  }
});

test('the payload is a JWS (PS256, kid, jku, x5t) of the CobPayload, verified with the JWKS', async () => {
  const charge = (await server.client.get(`/pix/v2/cob/${TXID(1)}`, auth(acme))).body;
  const fetched = await fetchPayload(server, charge.location);
  assert.is(fetched.status, 200);
  assert.match(fetched.contentType ?? '', /^application\/jose/);
  assert.is(fetched.header!.alg, 'PS256');
  assert.match(String(fetched.header!.jku), /^http:\/\/localhost:\d+\/\.well-known\/jwks\.json$/);
  assert.type(fetched.header!.kid, 'string');
  assert.type(fetched.header!.x5t, 'string');
  const p = fetched.payload;
  assert.is(p.txid, TXID(1));
  assert.is(p.revisao, 0);
  assert.is(p.status, 'ATIVA');
  assert.is(p.calendario.criacao, charge.calendario.criacao);
  assert.is(p.calendario.expiracao, 3600);
  assert.ok(Math.abs(Date.parse(p.calendario.apresentacao) - Date.now()) < 10_000);
  assert.equal(p.devedor, { cnpj: '11222333000181', nome: 'Oficina Mecanica Torque Ltda' });
  assert.equal(p.valor, { original: '1280.00', modalidadeAlteracao: 0 });
  assert.is(p.chave, acme.key);
  assert.is(p.solicitacaoPagador, 'Encomenda de salgados');
  assert.equal(p.infoAdicionais, [{ nome: 'Pedido', valor: '10491' }]);
  // a revision shows in the payload
  await server.client.patch(`/pix/v2/cob/${TXID(1)}`, { valor: { original: '1300.00' } }, auth(acme));
  const revised = await fetchPayload(server, charge.location);
  assert.is(revised.payload.revisao, 1);
  assert.is(revised.payload.valor.original, '1300.00');
});

test('404 for a location that never served a charge, 410 once its charge is gone', async () => {
  const unknown = await server.client.get('/qr/v2/4b0c8e7e-0000-4000-8000-000000000000');
  assert.is(unknown.status, 404);
  assert.is(unknown.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado');
  const empty = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(acme));
  assert.is((await fetchPayload(server, empty.body.location)).status, 404);

  // removed charge: 410
  const removed = await server.client.put(`/pix/v2/cob/${TXID(2)}`, cob(acme), auth(acme));
  await server.client.patch(`/pix/v2/cob/${TXID(2)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, auth(acme));
  const gone = await fetchPayload(server, removed.body.location);
  assert.is(gone.status, 410);
  assert.is(gone.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobPayloadNaoEncontrado');

  // a cob token on the cobv path, and the reverse: not found
  const cobToken = removed.body.location.split('/').pop();
  assert.is((await server.client.get(`/qr/v2/cobv/${cobToken}`)).status, 404);
});

test('DELETE /loc/{id}/txid unlinks: the charge keeps its status, the location its URL and serves again', async () => {
  const made = await server.client.put(`/pix/v2/cob/${TXID(3)}`, cob(acme), auth(acme));
  const locId = made.body.loc.id;
  const unlinked = await server.client.delete(`/pix/v2/loc/${locId}/txid`, auth(acme));
  assert.is(unlinked.status, 200, unlinked.text);
  const { txid: linkedTo, ...unlinkedLoc } = made.body.loc;
  assert.is(linkedTo, TXID(3));
  assert.equal(unlinked.body, unlinkedLoc);
  const charge = await server.client.get(`/pix/v2/cob/${TXID(3)}`, auth(acme));
  assert.is(charge.body.status, 'ATIVA');
  assert.is(charge.body.loc, undefined);
  assert.is(charge.body.location, undefined);
  assert.is(charge.body.pixCopiaECola, undefined);
  assert.is((await fetchPayload(server, made.body.location)).status, 410);
  const platform = await server.client.get(`/api/v1/charge/${TXID(3)}`, { auth: acme.appID });
  assert.is(platform.body.charge.brCode, '');

  // the location serves another charge, with the same URL
  const again = await server.client.put(`/pix/v2/cob/${TXID(4)}`, cob(acme, { loc: { id: locId } }), auth(acme));
  assert.is(again.status, 201, again.text);
  assert.is(again.body.location, made.body.location);
  const served = await fetchPayload(server, made.body.location);
  assert.is(served.payload.txid, TXID(4));
  // and the old charge can take a location again by PATCH
  const loc = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(acme));
  const relinked = await server.client.patch(`/pix/v2/cob/${TXID(3)}`, { loc: { id: loc.body.id } }, auth(acme));
  assert.is(relinked.body.location, loc.body.location);
  assert.is(relinked.body.revisao, 0);

  assert.is((await server.client.delete(`/pix/v2/loc/${locId}/txid`, auth(other))).status, 404);
  assert.is((await server.client.delete('/pix/v2/loc/424242/txid', auth(acme))).status, 404);
});

test('GET /loc lists by period, txIdPresente and tipoCob', async () => {
  const fresh = await chargesCompany(server);
  const start = new Date(Date.now() - 60_000).toISOString();
  const a = (await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(fresh))).body;
  const b = (await server.client.post('/pix/v2/loc', { tipoCob: 'cobv' }, auth(fresh))).body;
  const c = (await server.client.put(`/pix/v2/cob/${TXID(50)}`, cob(fresh), auth(fresh))).body.loc;
  const end = new Date(Date.now() + 60_000).toISOString();
  const list = (q: string) => server.client.get(`/pix/v2/loc?inicio=${start}&fim=${end}${q}`, auth(fresh));
  const all = await list('');
  assert.is(all.status, 200, all.text);
  assert.equal(
    all.body.loc.map((l: any) => l.id),
    [a.id, b.id, c.id],
  );
  assert.is(all.body.loc[2].txid, TXID(50));
  assert.equal(
    (await list('&txIdPresente=true')).body.loc.map((l: any) => l.id),
    [c.id],
  );
  assert.equal(
    (await list('&txIdPresente=false')).body.loc.map((l: any) => l.id),
    [a.id, b.id],
  );
  const cobv = await list('&tipoCob=cobv');
  assert.equal(
    cobv.body.loc.map((l: any) => l.id),
    [b.id],
  );
  assert.is(cobv.body.parametros.tipoCob, 'cobv');
  const paged = await list('&paginacao.itensPorPagina=2&paginacao.paginaAtual=1');
  assert.equal(
    paged.body.loc.map((l: any) => l.id),
    [c.id],
  );
  assert.equal(paged.body.parametros.paginacao, {
    paginaAtual: 1,
    itensPorPagina: 2,
    quantidadeDePaginas: 2,
    quantidadeTotalDeItens: 3,
  });
  const bad = await server.client.get(`/pix/v2/loc?inicio=${end}&fim=${start}`, auth(fresh));
  assert.is(bad.status, 400);
  assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationConsultaInvalida');
});

test.run();
