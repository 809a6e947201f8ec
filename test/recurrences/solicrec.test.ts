// Confirmation requests (solicrec) and the sandbox's payer answer (accept / reject).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { addDays, recBody, recCompany, today, type RecCompany } from './support';

let server: TestServer;
let acme: RecCompany;
let other: RecCompany;
let day: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await recCompany(server, { name: 'Fibra Norte Telecom', taxID: '61420339000131' });
  other = await recCompany(server);
  day = await today(server, acme);
});
// A test moves acme's clock (by hours, at times into the next day): each reads the day anew.
test.before.each(async () => {
  day = await today(server, acme);
});
test.after(async () => server.close());

const auth = (c: RecCompany) => ({ auth: c.bearer });
const OP = 'https://pix.bcb.gov.br/api/v2/error/SolicRecOperacaoInvalida';
const destinatario = { agencia: '0341', conta: '458721', ispbParticipante: '60701190', cpf: '41927360552' };
const solic = (idRec: string, expiry = `${addDays(day, 7)}T23:59:59Z`) => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: expiry },
  destinatario,
});

async function newRec(extra: Record<string, unknown> = {}) {
  const res = await server.client.post('/pix/v2/rec', recBody(day, extra), auth(acme));
  assert.is(res.status, 201, res.text);
  return res.body;
}

test('POST /solicrec: sent at once, carries the payload; one active request per recurrence', async () => {
  const rec = await newRec();
  const res = await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme));
  assert.is(res.status, 201, res.text);
  const s = res.body;
  assert.match(s.idSolicRec, new RegExp(`^SC99999999${day.replace(/-/g, '')}[a-zA-Z0-9]{11}$`));
  assert.is(s.idRec, rec.idRec);
  assert.is(s.status, 'ENVIADA');
  assert.equal(
    s.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'ENVIADA'],
  );
  assert.equal(s.destinatario, destinatario);
  assert.equal(s.calendario, { dataExpiracaoSolicitacao: `${addDays(day, 7)}T23:59:59Z` });
  assert.equal(s.recPayload, {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    valor: rec.valor,
    recebedor: { cnpj: '61420339000131', nome: rec.recebedor.nome, ispbParticipante: '99999999' },
    politicaRetentativa: 'PERMITE_3R_7D',
    atualizacao: rec.atualizacao,
  });
  const read = await server.client.get(`/pix/v2/solicrec/${s.idSolicRec}`, auth(acme));
  assert.equal(read.body, s);
  const foreign = await server.client.get(`/pix/v2/solicrec/${s.idSolicRec}`, auth(other));
  assert.is(foreign.status, 404);
  assert.is(foreign.body.type, 'https://pix.bcb.gov.br/api/v2/error/SolicRecNaoEncontrada');
  const recRead = await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme));
  assert.is(recRead.body.ativacao.tipoJornada, 'AGUARDANDO_DEFINICAO', 'journey 1 only once the payer accepts');
  assert.equal(recRead.body.solicitacao, [s]);

  const twice = await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme));
  assert.is(twice.status, 400);
  assert.is(twice.body.type, OP);
  assert.is(twice.body.violacoes[0].propriedade, 'solicrec.idRec');
  const past = await server.client.post(
    '/pix/v2/solicrec',
    solic((await newRec()).idRec, `${addDays(day, -1)}T00:00:00Z`),
    auth(acme),
  );
  assert.is(past.status, 400);
  assert.is(past.body.violacoes[0].propriedade, 'solicrec.calendario.dataExpiracaoSolicitacao');
  const unknown = await server.client.post('/pix/v2/solicrec', solic('RR1337083520260305Kzjd6PoQurO'), auth(acme));
  assert.is(unknown.status, 404);
  assert.is(unknown.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada');
  const foreignRec = await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(other));
  assert.is(foreignRec.status, 404);
  const schema = await server.client.post(
    '/pix/v2/solicrec',
    { idRec: rec.idRec, calendario: {}, destinatario },
    auth(acme),
  );
  assert.is(schema.status, 400);
  assert.is(schema.body.type, OP);

  const cancelled = await server.client.patch(`/pix/v2/solicrec/${s.idSolicRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(cancelled.status, 201, cancelled.text);
  assert.is(cancelled.body.status, 'CANCELADA');
  assert.equal(
    cancelled.body.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'ENVIADA', 'CANCELADA'],
  );
  const again = await server.client.patch(`/pix/v2/solicrec/${s.idSolicRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(again.status, 400);
  assert.is(again.body.violacoes[0].valor, 'CANCELADA');
  const missing = await server.client.patch(
    '/pix/v2/solicrec/SC1337083520260312rtQKMlGiVn7',
    { status: 'CANCELADA' },
    auth(acme),
  );
  assert.is(missing.status, 404);
  assert.is(missing.body.type, 'https://pix.bcb.gov.br/api/v2/error/SolicRecNaoEncontrada');
  // A new request once the previous one ended.
  assert.is((await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme))).status, 201);
});

test('sandbox accept: request RECEBIDA then ACEITA, recurrence APROVADA with its payer; accepted requests cannot be cancelled', async () => {
  const rec = await newRec();
  const s = (await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme))).body;
  const res = await server.client.post(`/api/v1/sandbox/rec/${rec.idRec}/accept`);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { idRec: rec.idRec, status: 'APROVADA', tipoJornada: 'JORNADA_1' });
  const read = (await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme))).body;
  assert.is(read.status, 'APROVADA');
  assert.is(read.ativacao.tipoJornada, 'JORNADA_1');
  assert.is(read.ispbParticipante, '60701190');
  assert.equal(read.pagador, { cpf: '41927360552', ispbParticipante: '60701190' });
  assert.equal(
    read.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'APROVADA'],
  );
  const accepted = (await server.client.get(`/pix/v2/solicrec/${s.idSolicRec}`, auth(acme))).body;
  assert.is(accepted.status, 'ACEITA');
  assert.equal(
    accepted.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'ENVIADA', 'RECEBIDA', 'ACEITA'],
  );
  const cancel = await server.client.patch(`/pix/v2/solicrec/${s.idSolicRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(cancel.status, 400);
  assert.equal(cancel.body.violacoes[0], {
    razao: 'The request status is ACEITA',
    propriedade: 'solicrec.status',
    valor: 'ACEITA',
  });
  const twice = await server.client.post(`/api/v1/sandbox/rec/${rec.idRec}/accept`);
  assert.is(twice.status, 400);
  assert.is((await server.client.post('/api/v1/sandbox/rec/RR1337083520260305Kzjd6PoQurO/accept')).status, 404);
  // An approved recurrence keeps its loc and start date.
  const loc = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const change = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { loc: loc.id }, auth(acme));
  assert.is(change.status, 400);
  assert.is(change.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida');
  const newStart = await server.client.patch(
    `/pix/v2/rec/${rec.idRec}`,
    { calendario: { dataInicial: addDays(day, 3) } },
    auth(acme),
  );
  assert.is(newStart.status, 400);
  const rename = await server.client.patch(
    `/pix/v2/rec/${rec.idRec}`,
    { vinculo: { devedor: { nome: 'Carlos E. Lima' } } },
    auth(acme),
  );
  assert.is(rename.status, 200, rename.text);
  const events = await server.database.db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'PIX_API:REC')
    .execute();
  const mine = events.map((e) => (e.payload as any).rec).filter((r) => r.idRec === rec.idRec);
  assert.equal(
    mine.map((r) => r.status),
    ['APROVADA'],
  );
});

test('sandbox reject: REJEITADA with the reason; solicrec expires after its date', async () => {
  const rec = await newRec();
  const s = (await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme))).body;
  const res = await server.client.post(`/api/v1/sandbox/rec/${rec.idRec}/reject`);
  assert.is(res.status, 200, res.text);
  const read = (await server.client.get(`/pix/v2/rec/${rec.idRec}`, auth(acme))).body;
  assert.is(read.status, 'REJEITADA');
  assert.equal(read.encerramento, { rejeicao: { codigo: 'AP14', descricao: 'Rejeitada pelo usuario pagador' } });
  assert.is((await server.client.get(`/pix/v2/solicrec/${s.idSolicRec}`, auth(acme))).body.status, 'REJEITADA');
  const patch = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(patch.status, 400);

  // Starts tomorrow: an earlier first date could pass (and expire it) while the clock moves.
  const rec2 = (await server.client.post('/pix/v2/rec', recBody(addDays(day, 1)), auth(acme))).body;
  const s2 = (
    await server.client.post(
      '/pix/v2/solicrec',
      solic(
        rec2.idRec,
        new Date(
          Date.parse((await server.client.get('/api/v1/sandbox/clock', { auth: acme.appID })).body.now) + 3600_000,
        ).toISOString(),
      ),
      auth(acme),
    )
  ).body;
  await server.services.jobs.runNow('recurrences');
  assert.is((await server.client.get(`/pix/v2/solicrec/${s2.idSolicRec}`, auth(acme))).body.status, 'ENVIADA');
  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 7200 }, { auth: acme.appID });
  await server.services.jobs.runNow('recurrences');
  const expired = (await server.client.get(`/pix/v2/solicrec/${s2.idSolicRec}`, auth(acme))).body;
  assert.is(expired.status, 'EXPIRADA');
  assert.equal(
    expired.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'ENVIADA', 'EXPIRADA'],
  );
  // The recurrence is still CRIADA: a new request can be sent.
  assert.is(
    (await server.client.post('/pix/v2/solicrec', solic(rec2.idRec, `${addDays(day, 9)}T00:00:00Z`), auth(acme)))
      .status,
    201,
  );
});

test('POST /solicrec refuses a payer CPF or CNPJ whose check digits are wrong, as everywhere else', async () => {
  const rec = await newRec();
  for (const [bad, field] of [
    [{ ...destinatario, cpf: '15231470190' }, 'solicrec.destinatario.cpf'],
    [
      { agencia: '0341', conta: '458721', ispbParticipante: '60701190', cnpj: '61420339000132' },
      'solicrec.destinatario.cnpj',
    ],
  ] as const) {
    const res = await server.client.post('/pix/v2/solicrec', { ...solic(rec.idRec), destinatario: bad }, auth(acme));
    assert.is(res.status, 400, res.text);
    assert.is(res.body.type, OP);
    assert.is(res.body.violacoes[0].propriedade, field);
  }
  // Nothing was written: a valid request for the same recurrence is still the first.
  const ok = await server.client.post('/pix/v2/solicrec', solic(rec.idRec), auth(acme));
  assert.is(ok.status, 201, ok.text);
});

test('a recurrence nobody approved by its first date ends EXPIRADA; an open request holds it until it expires', async () => {
  const start = addDays(day, 2);
  const create = async () => (await server.client.post('/pix/v2/rec', recBody(start), auth(acme))).body;
  const lonely = await create();
  const waiting = await create();
  const approved = await create();
  await server.client.post('/pix/v2/solicrec', solic(waiting.idRec, `${addDays(day, 10)}T12:00:00Z`), auth(acme));
  await server.client.post('/pix/v2/solicrec', solic(approved.idRec), auth(acme));
  assert.is((await server.client.post(`/api/v1/sandbox/rec/${approved.idRec}/accept`)).status, 200);
  const status = async (idRec: string) => (await server.client.get(`/pix/v2/rec/${idRec}`, auth(acme))).body;

  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 2 * 86_400 }, { auth: acme.appID });
  await server.services.jobs.runNow('recurrences');
  assert.is((await status(lonely.idRec)).status, 'CRIADA', 'its first date is today: still CRIADA');

  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 86_400 }, { auth: acme.appID });
  await server.services.jobs.runNow('recurrences');
  const expired = await status(lonely.idRec);
  assert.is(expired.status, 'EXPIRADA');
  assert.equal(
    expired.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'EXPIRADA'],
  );
  assert.is((await status(waiting.idRec)).status, 'CRIADA', 'an open confirmation request keeps it');
  assert.is((await status(approved.idRec)).status, 'APROVADA');
  // An expired recurrence takes no confirmation request.
  const late = await server.client.post(
    '/pix/v2/solicrec',
    solic(expired.idRec, `${addDays(day, 20)}T00:00:00Z`),
    auth(acme),
  );
  assert.is(late.status, 400, late.text);

  await server.client.post('/api/v1/sandbox/clock/advance', { seconds: 8 * 86_400 }, { auth: acme.appID });
  await server.services.jobs.runNow('recurrences');
  assert.is((await status(waiting.idRec)).status, 'EXPIRADA', 'once its request expired');
});

test.run();
