// Recurrence locations (locrec), recurrences (rec) and the open recurrence payload (/qr/v2/rec).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchPayload } from '../charges/support';
import { startTestServer, type TestServer } from '../support/server';
import { addDays, recBody, recCompany, today, type RecCompany } from './support';

let server: TestServer;
let acme: RecCompany;
let other: RecCompany;
let day: string;

test.before(async () => {
  server = await startTestServer();
  acme = await recCompany(server, { name: 'Fibra Norte Telecom', taxID: '61420339000131' });
  other = await recCompany(server);
  day = await today(server, acme);
});
test.after(async () => server.close());

const auth = (c: RecCompany) => ({ auth: c.bearer });
const OP = 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida';

test('POST /locrec, GET /locrec/{id}, list, tenancy', async () => {
  const created = await server.client.post('/pix/v2/locrec', undefined, auth(acme));
  assert.is(created.status, 201, created.text);
  const loc = created.body;
  assert.type(loc.id, 'number');
  assert.match(loc.location, /^localhost:\d+\/qr\/v2\/rec\/[0-9a-f-]{36}$/);
  assert.is(created.headers.get('location'), loc.location);
  assert.equal(Object.keys(loc).sort(), ['criacao', 'id', 'location', 'tipo']);
  assert.is(loc.tipo, 'rec');
  const read = await server.client.get(`/pix/v2/locrec/${loc.id}`, auth(acme));
  assert.is(read.status, 200);
  assert.equal(read.body, loc);
  for (const [id, who] of [
    ['999999', acme],
    ['abc', acme],
    [String(loc.id), other],
  ] as const) {
    const res = await server.client.get(`/pix/v2/locrec/${id}`, auth(who));
    assert.is(res.status, 404, id);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationRecNaoEncontrado');
    const del = await server.client.delete(`/pix/v2/locrec/${id}/idRec`, auth(who));
    assert.is(del.status, 404, id);
    assert.is(del.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationRecNaoEncontrado');
  }
  const list = await server.client.get(
    '/pix/v2/locrec?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z',
    auth(acme),
  );
  assert.is(list.status, 200, list.text);
  assert.equal(list.body.loc, [loc]);
  assert.equal(list.body.parametros.paginacao, {
    paginaAtual: 0,
    itensPorPagina: 100,
    quantidadeDePaginas: 1,
    quantidadeTotalDeItens: 1,
  });
  const none = await server.client.get(
    '/pix/v2/locrec?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z',
    auth(other),
  );
  assert.equal(none.body.loc, []);
  const bad = await server.client.get(
    '/pix/v2/locrec?inicio=2026-02-01T00:00:00Z&fim=2026-01-01T00:00:00Z',
    auth(acme),
  );
  assert.is(bad.status, 400);
  assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/PayloadLocationRecConsultaInvalida');
});

test('POST /rec: idRec, status CRIADA, receiver from the company, loc linked, journey', async () => {
  const loc = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const res = await server.client.post(
    '/pix/v2/rec',
    recBody(day, { loc: loc.id, ativacao: { dadosJornada: { txid: 'ucWV9lUdQn577OFd27f3IP4W3z' } } }),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  const rec = res.body;
  assert.match(rec.idRec, new RegExp(`^RR99999999${day.replace(/-/g, '')}[a-zA-Z0-9]{11}$`));
  assert.is(rec.idRec.length, 29);
  assert.is(rec.status, 'CRIADA');
  assert.equal(rec.recebedor, { cnpj: '61420339000131', nome: rec.recebedor.nome });
  assert.type(rec.recebedor.nome, 'string');
  assert.equal(rec.loc, { ...loc, idRec: rec.idRec });
  // A recurrence that names its immediate charge is on journey 3 from creation, as the
  // standard's example shows; otherwise the payer decides (journeys.test.ts).
  assert.equal(rec.ativacao, {
    tipoJornada: 'JORNADA_3',
    dadosJornada: { txid: 'ucWV9lUdQn577OFd27f3IP4W3z' },
  });
  assert.equal(rec.valor, { valorRec: '119.90' });
  assert.is(rec.atualizacao.length, 1);
  assert.is(rec.atualizacao[0].status, 'CRIADA');
  const linked = await server.client.get(`/pix/v2/locrec/${loc.id}`, auth(acme));
  assert.is(linked.body.idRec, rec.idRec);

  const read = await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme));
  assert.is(read.status, 200, read.text);
  const { dadosQR, ...rest } = read.body;
  assert.equal(rest, rec);
  assert.is(dadosQR.jornada, 'JORNADA_2', 'a recurrence with a location offers its own QR code');
  // The journey's txid names no charge yet: no composite code can be built with it.
  const noCharge = await server.client.get(`/pix/v2/rec/${rec.idRec}?txid=ucWV9lUdQn577OFd27f3IP4W3z`, auth(acme));
  assert.is(noCharge.status, 400);
  const wrongTxid = await server.client.get(`/pix/v2/rec/${rec.idRec}?txid=750DWxoRsqKp5GWlI42iMyxTO2`, auth(acme));
  assert.is(wrongTxid.status, 400);
  assert.is(wrongTxid.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida');
  const foreign = await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(other));
  assert.is(foreign.status, 404);
  assert.is(foreign.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada');

  const noRetry = await server.client.post(
    '/pix/v2/rec',
    recBody(day, {
      politicaRetentativa: 'NAO_PERMITE',
      valor: { valorMinimoRecebedor: '89.90' },
      recebedor: { convenio: 'PLANO-FIBRA-300' },
    }),
    auth(acme),
  );
  assert.is(noRetry.status, 201, noRetry.text);
  assert.is(noRetry.body.idRec.slice(0, 2), 'RN');
  assert.equal(noRetry.body.ativacao, { tipoJornada: 'AGUARDANDO_DEFINICAO' });
  assert.is(noRetry.body.recebedor.convenio, 'PLANO-FIBRA-300');
  assert.is(noRetry.body.loc, undefined);
});

test('POST /rec: RecOperacaoInvalida', async () => {
  const usedLoc = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  assert.is((await server.client.post('/pix/v2/rec', recBody(day, { loc: usedLoc.id }), auth(acme))).status, 201);
  const foreignLoc = (await server.client.post('/pix/v2/locrec', undefined, auth(other))).body;
  const cases: Array<[Record<string, unknown>, string]> = [
    [recBody(addDays(day, -1)), 'rec.calendario.dataInicial'],
    [
      recBody(day, {
        calendario: { dataInicial: addDays(day, 10), dataFinal: addDays(day, 5), periodicidade: 'MENSAL' },
      }),
      'rec.calendario.dataFinal',
    ],
    [recBody(day, { valor: { valorRec: '119.90', valorMinimoRecebedor: '10.00' } }), 'rec.valor'],
    [recBody(day, { loc: 987654 }), 'rec.loc'],
    [recBody(day, { loc: usedLoc.id }), 'rec.loc'],
    [recBody(day, { loc: foreignLoc.id }), 'rec.loc'],
    [recBody(day, { recebedor: { convenio: 'convênio;drop' } }), 'rec.recebedor.convenio'],
    [
      recBody(day, { vinculo: { contrato: 'X', devedor: { cpf: '12345678900', nome: 'Fulano' } } }),
      'rec.vinculo.devedor.cpf',
    ],
    [recBody(day, { valor: { valorRec: '0.00' } }), 'rec.valor.valorRec'],
  ];
  for (const [body, field] of cases) {
    const res = await server.client.post('/pix/v2/rec', body, auth(acme));
    assert.is(res.status, 400, `${field}: ${res.text}`);
    assert.is(res.body.type, OP);
    assert.is(res.body.violacoes[0].propriedade, field);
  }
  const schema = await server.client.post(
    '/pix/v2/rec',
    { ...recBody(day), politicaRetentativa: 'SEMPRE' },
    auth(acme),
  );
  assert.is(schema.status, 400);
  assert.is(schema.body.type, OP);
});

test('PATCH /rec: revise while CRIADA, cancel, then refused; location moves', async () => {
  const loc1 = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const loc2 = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const rec = (await server.client.post('/pix/v2/rec', recBody(day, { loc: loc1.id }), auth(acme))).body;
  assert.is(rec.ativacao.tipoJornada, 'AGUARDANDO_DEFINICAO');
  const start = addDays(day, 5);
  const revised = await server.client.patch(
    `/pix/v2/rec/${rec.idRec}`,
    { loc: loc2.id, calendario: { dataInicial: start }, vinculo: { devedor: { nome: 'Carlos Eduardo de Lima' } } },
    auth(acme),
  );
  assert.is(revised.status, 200, revised.text);
  assert.is(revised.body.calendario.dataInicial, start);
  assert.equal(revised.body.vinculo.devedor, { cpf: '41927360552', nome: 'Carlos Eduardo de Lima' });
  assert.equal(revised.body.loc, { ...loc2, idRec: rec.idRec });
  assert.is(revised.body.status, 'CRIADA');
  assert.is((await server.client.get(`/pix/v2/locrec/${loc1.id}`, auth(acme))).body.idRec, undefined);

  const past = await server.client.patch(
    `/pix/v2/rec/${rec.idRec}`,
    { calendario: { dataInicial: addDays(day, -2) } },
    auth(acme),
  );
  assert.is(past.status, 400);
  assert.is(past.body.type, OP);
  const missing = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { loc: 987654 }, auth(acme));
  assert.is(missing.status, 400);
  const unknown = await server.client.patch(
    '/pix/v2/rec/RR1337083520260305Kzjd6PoQurO',
    { status: 'CANCELADA' },
    auth(acme),
  );
  assert.is(unknown.status, 404);
  assert.is(unknown.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada');
  const badStatus = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { status: 'APROVADA' }, auth(acme));
  assert.is(badStatus.status, 400);
  assert.is(badStatus.body.type, OP);

  const cancelled = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(cancelled.status, 200, cancelled.text);
  assert.is(cancelled.body.status, 'CANCELADA');
  assert.equal(
    cancelled.body.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'CANCELADA'],
  );
  assert.equal(cancelled.body.encerramento, {
    cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelada pelo usuario recebedor' },
  });
  for (const body of [{ status: 'CANCELADA' }, { vinculo: { devedor: { nome: 'Outro' } } }]) {
    const again = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, body, auth(acme));
    assert.is(again.status, 400);
    assert.is(again.body.type, OP);
  }
  const events = await server.database.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('type', '=', 'PIX_API:REC')
    .execute();
  const mine = events.filter((e) => (e.payload as any).rec.idRec === rec.idRec);
  assert.is(mine.length, 1);
  assert.is((mine[0]!.payload as any).rec.status, 'CANCELADA');
});

test('GET /rec: filters and RecConsultaInvalida', async () => {
  const range = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
  const all = await server.client.get(`/pix/v2/rec?${range}`, auth(acme));
  assert.is(all.status, 200, all.text);
  assert.is(all.body.recs.length, 4);
  const cancelled = await server.client.get(`/pix/v2/rec?${range}&status=CANCELADA`, auth(acme));
  assert.is(cancelled.body.recs.length, 1);
  assert.is(cancelled.body.parametros.status, 'CANCELADA');
  const convenio = await server.client.get(`/pix/v2/rec?${range}&convenio=PLANO-FIBRA-300`, auth(acme));
  assert.is(convenio.body.recs.length, 1);
  assert.equal(convenio.body.parametros.recebedor, { convenio: 'PLANO-FIBRA-300' });
  const withLoc = await server.client.get(`/pix/v2/rec?${range}&locationPresente=true`, auth(acme));
  assert.is(withLoc.body.recs.length, 3);
  const byCpf = await server.client.get(
    `/pix/v2/rec?${range}&cpf=41927360552&paginacao.itensPorPagina=2&paginacao.paginaAtual=1`,
    auth(acme),
  );
  assert.is(byCpf.body.recs.length, 2);
  assert.equal(byCpf.body.parametros.paginacao, {
    paginaAtual: 1,
    itensPorPagina: 2,
    quantidadeDePaginas: 2,
    quantidadeTotalDeItens: 4,
  });
  assert.is((await server.client.get(`/pix/v2/rec?${range}`, auth(other))).body.recs.length, 0);
  for (const q of [
    'inicio=2026-02-01T00:00:00Z&fim=2026-01-01T00:00:00Z',
    `${range}&cpf=41927360552&cnpj=61420339000131`,
    `${range}&paginacao.paginaAtual=-1`,
    'fim=2026-01-01T00:00:00Z',
  ]) {
    const res = await server.client.get(`/pix/v2/rec?${q}`, auth(acme));
    assert.is(res.status, 400, q);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida');
  }
});

test('GET /qr/v2/rec/{token}: signed RecPayload; 404, 410 after unlink, 400 once cancelled', async () => {
  const loc = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const free = await fetchPayload(server, loc.location);
  assert.is(free.status, 404);
  assert.is(free.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecPayloadNaoEncontrado');
  const rec = (await server.client.post('/pix/v2/rec', recBody(day, { loc: loc.id }), auth(acme))).body;
  const fetched = await fetchPayload(server, loc.location);
  assert.is(fetched.status, 200);
  assert.match(fetched.contentType ?? '', /^application\/jose/);
  assert.is(fetched.header!.alg, 'PS256');
  assert.equal(fetched.payload, {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    valor: rec.valor,
    recebedor: { cnpj: '61420339000131', nome: rec.recebedor.nome, ispbParticipante: '99999999' },
    politicaRetentativa: 'PERMITE_3R_7D',
    atualizacao: rec.atualizacao,
  });
  const unlinked = await server.client.delete(`/pix/v2/locrec/${loc.id}/idRec`, auth(acme));
  assert.is(unlinked.status, 200);
  assert.equal(unlinked.body, loc);
  assert.is((await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme))).body.loc, undefined);
  assert.is((await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme))).body.status, 'CRIADA');
  const gone = await fetchPayload(server, loc.location);
  assert.is(gone.status, 410);
  assert.is(gone.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecPayloadNaoEncontrado');
  assert.is((await fetchPayload(server, 'localhost/qr/v2/rec/00000000-0000-4000-8000-000000000000')).status, 404);

  const loc2 = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const relinked = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { loc: loc2.id }, auth(acme));
  assert.is(relinked.status, 200, relinked.text);
  assert.is((await fetchPayload(server, loc2.location)).status, 200);
  await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { status: 'CANCELADA' }, auth(acme));
  const ended = await fetchPayload(server, loc2.location);
  assert.is(ended.status, 400);
  assert.is(ended.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecPayloadOperacaoInvalida');
});

test.run();
