// The four activation journeys of Pix Automático: the composite QR code of GET /rec/{idRec}
// (dadosQR: field 26 for a charge, field 80 for the recurrence, decoded here with a reader of
// the tests' own), tipoJornada undecided until the payer approves (JORNADA_3 from creation
// when the recurrence names its immediate charge, as the standard's example shows), and the
// sandbox payer approving by each journey (paying the charge of journeys 3 and 4).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findDefaultKey } from '../../src/keys/keys.repository';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { decodeComposite, withWrongCrc } from './emv';
import { addDays, recBody, recCompany, today, type RecCompany } from './support';

let server: TestServer;
let acme: RecCompany;
let other: RecCompany;
let day: string;
let key: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await recCompany(server, { name: 'Fibra Norte Telecom', taxID: '61420339000131' });
  other = await recCompany(server);
  day = await today(server, acme);
  key = (await findDefaultKey(server.database.db, acme.companyId))!.key;
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const auth = (c: RecCompany) => ({ auth: c.bearer });
const GUI = 'br.gov.bcb.pix';
const CONSULTA = 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida';
let n = 0;
const txid = (kind: string) => `${kind}Journey${String(++n).padStart(6, '0')}abcdefghijk`;
const devedor = { cpf: '41927360552', nome: 'Carlos Eduardo Lima' };

async function newRec(extra: Record<string, unknown> = {}, withLoc = true) {
  const loc = withLoc ? (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body : undefined;
  const res = await server.client.post(
    '/pix/v2/rec',
    recBody(day, { ...(loc ? { loc: loc.id } : {}), ...extra }),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  const named = (extra.ativacao as { dadosJornada?: { txid: string } } | undefined)?.dadosJornada;
  assert.equal(
    res.body.ativacao,
    named ? { tipoJornada: 'JORNADA_3', dadosJornada: named } : { tipoJornada: 'AGUARDANDO_DEFINICAO' },
    'journey 3 from creation when dadosJornada names its charge, else undecided',
  );
  return res.body;
}

async function newCob(id: string, company = acme) {
  const chave = company === acme ? key : (await findDefaultKey(server.database.db, company.companyId))!.key;
  const res = await server.client.put(
    `/pix/v2/cob/${id}`,
    { calendario: { expiracao: 86400 }, devedor, valor: { original: '119.90' }, chave },
    auth(company),
  );
  assert.is(res.status, 201, res.text);
  return res.body;
}

async function newCobv(id: string) {
  const res = await server.client.put(
    `/pix/v2/cobv/${id}`,
    {
      calendario: { dataDeVencimento: addDays(day, 10), validadeAposVencimento: 30 },
      devedor,
      valor: { original: '119.90' },
      chave: key,
    },
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  return res.body;
}

async function readRec(idRec: string, query = '') {
  return server.client.get(`/pix/v2/rec/${idRec}${query}`, auth(acme));
}

async function accept(idRec: string, body?: Record<string, unknown>) {
  return server.client.post(`/api/v1/sandbox/rec/${idRec}/accept`, body);
}

test('journey 1: the payer accepts the confirmation request', async () => {
  const rec = await newRec({}, false);
  assert.is((await readRec(rec.idRec)).body.dadosQR, undefined, 'no location: no QR code');
  const solic = await server.client.post(
    '/pix/v2/solicrec',
    {
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: `${addDays(day, 5)}T12:00:00Z` },
      destinatario: { agencia: '0341', conta: '458721', ispbParticipante: '18236120', cpf: devedor.cpf },
    },
    auth(acme),
  );
  assert.is(solic.status, 201, solic.text);
  assert.equal(solic.body.pagador, { cpf: devedor.cpf, ispbParticipante: '18236120' });
  assert.equal(solic.body.rec, {
    idRec: rec.idRec,
    status: 'CRIADA',
    ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
  });
  assert.is((await readRec(rec.idRec)).body.ispbParticipante, '18236120', "the request names the payer's PSP");

  const res = await accept(rec.idRec);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { idRec: rec.idRec, status: 'APROVADA', tipoJornada: 'JORNADA_1' });
  const read = (await readRec(rec.idRec)).body;
  assert.equal(read.ativacao, { tipoJornada: 'JORNADA_1' });
  assert.equal(read.pagador, { cpf: devedor.cpf, ispbParticipante: '18236120' });
  const solicRead = (await server.client.get(`/pix/v2/solicrec/${solic.body.idSolicRec}`, auth(acme))).body;
  assert.is(solicRead.status, 'ACEITA');
  assert.equal(solicRead.rec, { idRec: rec.idRec, status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' } });
});

test('journey 2: GET /rec answers the recurrence QR code (field 80); the payer approves with it', async () => {
  const rec = await newRec();
  const read = await readRec(rec.idRec);
  assert.is(read.status, 200, read.text);
  assert.is(read.body.dadosQR.jornada, 'JORNADA_2');
  const { fields, f26, f80 } = decodeComposite(read.body.dadosQR.pixCopiaECola);
  assert.is(f80.get('00'), GUI);
  assert.is(f80.get('25'), rec.loc.location, 'field 80 carries the recurrence location');
  assert.equal([...f26.entries()], [['00', GUI]], 'field 26: the Pix GUI alone, nothing to pay');
  assert.is(fields.get('54'), undefined);

  const res = await accept(rec.idRec, { pixCopiaECola: read.body.dadosQR.pixCopiaECola });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { idRec: rec.idRec, status: 'APROVADA', tipoJornada: 'JORNADA_2' });
  const approved = (await readRec(rec.idRec)).body;
  assert.is(approved.ativacao.tipoJornada, 'JORNADA_2');
  assert.equal(approved.pagador, { cpf: devedor.cpf, ispbParticipante: '60701190' });
  assert.is(approved.ispbParticipante, '60701190');
});

test('journey 3: the QR code of the immediate charge and the recurrence; approving pays the charge', async () => {
  const cobTxid = txid('cob');
  const cob = await newCob(cobTxid);
  const rec = await newRec({ ativacao: { dadosJornada: { txid: cobTxid } } });
  const read = await readRec(rec.idRec, `?txid=${cobTxid}`);
  assert.is(read.status, 200, read.text);
  assert.is(read.body.dadosQR.jornada, 'JORNADA_3');
  const { f26, f80 } = decodeComposite(read.body.dadosQR.pixCopiaECola);
  assert.is(f26.get('00'), GUI);
  assert.is(f26.get('25'), cob.loc.location, "field 26 carries the cob's location");
  assert.is(f80.get('25'), rec.loc.location, 'field 80 the recurrence location');

  // Another immediate charge than the journey's is refused (RecConsultaInvalida).
  const stray = txid('cob');
  await newCob(stray);
  const wrong = await readRec(rec.idRec, `?txid=${stray}`);
  assert.is(wrong.status, 400, wrong.text);
  assert.is(wrong.body.type, CONSULTA);
  // Another company's charge is not a charge of this receiver.
  const foreign = txid('cob');
  await newCob(foreign, other);
  assert.is((await readRec(rec.idRec, `?txid=${foreign}`)).status, 400);

  const res = await accept(rec.idRec, { pixCopiaECola: read.body.dadosQR.pixCopiaECola });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.tipoJornada, 'JORNADA_3');
  assert.match(res.body.endToEndId, /^E60701190/);
  const paid = (await server.client.get(`/pix/v2/cob/${cobTxid}`, auth(acme))).body;
  assert.is(paid.status, 'CONCLUIDA');
  assert.is(paid.pix[0].endToEndId, res.body.endToEndId);
  const approved = (await readRec(rec.idRec, `?txid=${cobTxid}`)).body;
  assert.equal(approved.ativacao, { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } });
  assert.is(approved.dadosQR.jornada, 'JORNADA_3', 'the journey stays readable once approved');
  // A due-date charge does not fit a recurrence approved by journey 3.
  const cobvTxid = txid('cobv');
  await newCobv(cobvTxid);
  const mismatch = await readRec(rec.idRec, `?txid=${cobvTxid}`);
  assert.is(mismatch.status, 400, mismatch.text);
  assert.is(mismatch.body.type, CONSULTA);
});

test('a recurrence created with dadosJornada.txid is on journey 3: a cobv does not fit it', async () => {
  const cobTxid = txid('cob');
  await newCob(cobTxid);
  const rec = await newRec({ ativacao: { dadosJornada: { txid: cobTxid } } });
  const read = (await readRec(rec.idRec)).body;
  assert.equal(read.ativacao, { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } });
  const cobvTxid = txid('cobv');
  await newCobv(cobvTxid);
  const mismatch = await readRec(rec.idRec, `?txid=${cobvTxid}`);
  assert.is(mismatch.status, 400, mismatch.text);
  assert.is(mismatch.body.type, CONSULTA);
  assert.match(mismatch.body.violacoes[0].razao, /JORNADA_3/);
});

test('PATCH naming the immediate charge moves a recurrence not yet approved to journey 3', async () => {
  const rec = await newRec();
  const cobTxid = txid('cob');
  await newCob(cobTxid);
  const res = await server.client.patch(
    `/pix/v2/rec/${rec.idRec}`,
    { ativacao: { dadosJornada: { txid: cobTxid } } },
    auth(acme),
  );
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.ativacao, { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } });
  assert.equal((await readRec(rec.idRec)).body.ativacao, res.body.ativacao);
});

test('approving by journey 2 removes the dadosJornada of a recurrence created for journey 3', async () => {
  const cobTxid = txid('cob');
  await newCob(cobTxid);
  const rec = await newRec({ ativacao: { dadosJornada: { txid: cobTxid } } });
  const code = (await readRec(rec.idRec)).body.dadosQR.pixCopiaECola;
  const res = await accept(rec.idRec, { pixCopiaECola: code });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.tipoJornada, 'JORNADA_2');
  assert.equal((await readRec(rec.idRec)).body.ativacao, { tipoJornada: 'JORNADA_2' });
});

test('journey 4: GET /rec?txid= of a due-date charge is no violation; approving pays the cobv', async () => {
  const cobvTxid = txid('cobv');
  const cobv = await newCobv(cobvTxid);
  const rec = await newRec();
  const read = await readRec(rec.idRec, `?txid=${cobvTxid}`);
  assert.is(read.status, 200, read.text);
  assert.is(read.body.dadosQR.jornada, 'JORNADA_4');
  const { f26, f80 } = decodeComposite(read.body.dadosQR.pixCopiaECola);
  assert.is(f26.get('25'), cobv.loc.location, "field 26 carries the cobv's location");
  assert.match(f26.get('25')!, /\/qr\/v2\/cobv\//);
  assert.is(f80.get('25'), rec.loc.location);

  const res = await accept(rec.idRec, { pixCopiaECola: read.body.dadosQR.pixCopiaECola });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.tipoJornada, 'JORNADA_4');
  const paid = (await server.client.get(`/pix/v2/cobv/${cobvTxid}`, auth(acme))).body;
  assert.is(paid.status, 'CONCLUIDA');
  const approved = (await readRec(rec.idRec)).body;
  assert.equal(approved.ativacao, { tipoJornada: 'JORNADA_4' }, 'dadosJornada is for journey 3 only');
});

test('the sandbox payer refuses codes that do not approve this recurrence', async () => {
  const rec = await newRec();
  const otherRec = await newRec();
  const code = (await readRec(rec.idRec)).body.dadosQR.pixCopiaECola;
  const otherCode = (await readRec(otherRec.idRec)).body.dadosQR.pixCopiaECola;
  for (const bad of [withWrongCrc(code), otherCode]) {
    const res = await accept(rec.idRec, { pixCopiaECola: bad });
    assert.is(res.status, 400, res.text);
  }
  const noWay = await newRec({}, false);
  const res = await accept(noWay.idRec);
  assert.is(res.status, 400, 'neither a confirmation request nor a location');
  assert.is((await readRec(rec.idRec)).body.status, 'CRIADA');
  assert.is((await readRec(rec.idRec, `?txid=${txid('none')}`)).status, 400, 'a txid of no charge');
});

test.run();
