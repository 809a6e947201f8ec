// Recurring charges (cobr): creation rules, cancellation, retries, and settlement on the due
// date by the recurrences job (ledger credit and PIX_IN transaction).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextBusinessDay } from '../../src/lib/business-days';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { addDays, advanceDays, recBody, recCompany, today, type RecCompany } from './support';

let server: TestServer;
let acme: RecCompany;
let other: RecCompany;
let day: string;
let account: { branch: string; account_number: string };

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await recCompany(server, { name: 'Fibra Norte Telecom', taxID: '61420339000131' });
  other = await recCompany(server);
  day = await today(server, acme);
  account = await server.database.db
    .selectFrom('bank_accounts')
    .select(['branch', 'account_number'])
    .where('id', '=', acme.accountId)
    .executeTakeFirstOrThrow();
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const auth = (c: RecCompany) => ({ auth: c.bearer });
const OP = 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida';
const TXID = (n: number) => `cobrTestTxid${String(n).padStart(10, '0')}abcdef`;

// A recurrence with a location, approved by the payer through its QR code (journey 2).
async function approvedRec(extra: Record<string, unknown> = {}) {
  const loc = (await server.client.post('/pix/v2/locrec', undefined, auth(acme))).body;
  const rec = await server.client.post('/pix/v2/rec', recBody(day, { loc: loc.id, ...extra }), auth(acme));
  assert.is(rec.status, 201, rec.text);
  const ok = await server.client.post(`/api/v1/sandbox/rec/${rec.body.idRec}/accept`);
  assert.is(ok.status, 200, ok.text);
  return rec.body;
}

function cobrBody(idRec: string, due: string, extra: Record<string, unknown> = {}) {
  return {
    idRec,
    infoAdicional: 'Fatura - Plano Fibra 500 Mega',
    calendario: { dataDeVencimento: due },
    valor: { original: '119.90' },
    ajusteDiaUtil: true,
    devedor: { email: 'carlos.lima@email.com.br', cidade: 'Belem', uf: 'PA' },
    recebedor: { agencia: account.branch, conta: account.account_number, tipoConta: 'CORRENTE' },
    ...extra,
  };
}

async function balance(c: RecCompany): Promise<number> {
  const row = await server.database.db
    .selectFrom('account_balances')
    .select('total')
    .where('account_id', '=', c.accountId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

test('PUT /cobr/{txid}: scheduled at once on the business day; GET; settled on that day', async () => {
  const rec = await approvedRec();
  const due = addDays(day, 10);
  const settlement = nextBusinessDay(due);
  const res = await server.client.put(`/pix/v2/cobr/${TXID(1)}`, cobrBody(rec.idRec, due), auth(acme));
  assert.is(res.status, 201, res.text);
  const c = res.body;
  assert.is(c.txid, TXID(1));
  assert.is(c.idRec, rec.idRec);
  assert.is(c.status, 'ATIVA');
  assert.equal(c.calendario, { criacao: day, dataDeVencimento: due });
  assert.equal(c.valor, { original: '119.90' });
  assert.is(c.ajusteDiaUtil, true);
  assert.is(c.politicaRetentativa, 'PERMITE_3R_7D');
  assert.equal(c.recebedor, {
    agencia: account.branch,
    conta: account.account_number,
    tipoConta: 'CORRENTE',
    cnpj: '61420339000131',
    nome: rec.recebedor.nome,
  });
  assert.equal(
    c.atualizacao.map((a: { status: string }) => a.status),
    ['CRIADA', 'ATIVA'],
  );
  const read = (await server.client.get(`/pix/v2/cobr/${TXID(1)}`, auth(acme))).body;
  assert.is(read.tentativas.length, 1);
  assert.equal(c.tentativas, read.tentativas, 'the PUT answers the attempt it scheduled, as the GET shows it');
  const attempt = read.tentativas[0];
  assert.is(attempt.dataLiquidacao, settlement);
  assert.is(attempt.tipo, 'AGND');
  assert.is(attempt.status, 'AGENDADA');
  assert.match(attempt.endToEndId, new RegExp(`^E60701190${settlement.replace(/-/g, '')}1200[a-zA-Z0-9]{11}$`));
  assert.is((await server.client.get(`/pix/v2/cobr/${TXID(1)}`, auth(other))).status, 404);

  const before = await balance(acme);
  await advanceDays(server, Math.round((Date.parse(settlement) - Date.parse(day)) / 86_400_000) - 1, acme, other);
  await server.services.jobs.runNow('recurrences');
  assert.is((await server.client.get(`/pix/v2/cobr/${TXID(1)}`, auth(acme))).body.status, 'ATIVA');
  await advanceDays(server, 1, acme, other);
  await server.services.jobs.runNow('recurrences');
  await server.services.jobs.runNow('recurrences');
  const paid = (await server.client.get(`/pix/v2/cobr/${TXID(1)}`, auth(acme))).body;
  assert.is(paid.status, 'CONCLUIDA', JSON.stringify(paid));
  assert.is(paid.tentativas[0].status, 'PAGA');
  assert.is(paid.pix.length, 1);
  assert.is(paid.pix[0].endToEndId, attempt.endToEndId);
  assert.is(paid.pix[0].valor, '119.90');
  assert.is(paid.pix[0].txid, TXID(1));
  assert.is(await balance(acme), before + 11990);
  const tx = await server.database.db
    .selectFrom('transactions')
    .selectAll()
    .where('end_to_end_id', '=', attempt.endToEndId)
    .execute();
  assert.is(tx.length, 1);
  assert.is(tx[0]!.type, 'PIX_IN');
  assert.is(Number(tx[0]!.value), 11990);
  assert.is(tx[0]!.account_id, acme.accountId);
  const events = await server.database.db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'PIX_API:COBR')
    .execute();
  const mine = events.map((e) => (e.payload as any).cobr).filter((x) => x.txid === TXID(1));
  assert.equal(
    mine.map((x) => x.status),
    ['ATIVA', 'CONCLUIDA'],
  );
  day = await today(server, acme);
});

test('POST /cobr: txid assigned; the rules of creation', async () => {
  const rec = await approvedRec({ politicaRetentativa: 'NAO_PERMITE' });
  const due = addDays(day, 5);
  const res = await server.client.post('/pix/v2/cobr', cobrBody(rec.idRec, due), auth(acme));
  assert.is(res.status, 201, res.text);
  assert.match(res.body.txid, /^[a-zA-Z0-9]{26,35}$/);
  assert.is(res.body.politicaRetentativa, 'NAO_PERMITE');
  const pending = (await server.client.post('/pix/v2/rec', recBody(day), auth(acme))).body;
  const cases: Array<[string, unknown, string]> = [
    ['same cycle', cobrBody(rec.idRec, addDays(due, 1)), 'cobr.idRec'],
    ['due in the past', cobrBody(rec.idRec, addDays(day, -1)), 'cobr.calendario.dataDeVencimento'],
    [
      'other account',
      cobrBody(rec.idRec, addDays(due, 40), {
        recebedor: { agencia: account.branch, conta: '99999999', tipoConta: 'CORRENTE' },
      }),
      'cobr.recebedor.conta',
    ],
    ['other amount', cobrBody(rec.idRec, addDays(due, 40), { valor: { original: '100.00' } }), 'cobr.valor.original'],
    ['not approved', cobrBody(pending.idRec, addDays(due, 40)), 'cobr.idRec'],
    ['unknown rec', cobrBody('RR1337083520260305Kzjd6PoQurO', addDays(due, 40)), 'cobr.idRec'],
  ];
  for (const [name, body, field] of cases) {
    const r = await server.client.post('/pix/v2/cobr', body, auth(acme));
    assert.is(r.status, 400, `${name}: ${r.text}`);
    assert.is(r.body.type, OP, name);
    assert.is(r.body.violacoes[0].propriedade, field, name);
  }
  const used = await server.client.put(
    `/pix/v2/cobr/${res.body.txid}`,
    cobrBody(rec.idRec, addDays(due, 40)),
    auth(acme),
  );
  assert.is(used.status, 400);
  assert.is(used.body.violacoes[0].propriedade, 'cobr.txid');
  const unknown = await server.client.put(
    `/pix/v2/cobr/${TXID(9)}`,
    cobrBody('RR1337083520260305Kzjd6PoQurO', due),
    auth(acme),
  );
  assert.is(unknown.status, 404);
  assert.is(unknown.body.type, 'https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada');
  const foreign = await server.client.put(`/pix/v2/cobr/${TXID(9)}`, cobrBody(rec.idRec, due), auth(other));
  assert.is(foreign.status, 404);
  // Next cycle is fine; a cancelled charge frees its cycle.
  const next = await server.client.post('/pix/v2/cobr', cobrBody(rec.idRec, addDays(due, 35)), auth(acme));
  assert.is(next.status, 201, next.text);
  const noAdjust = await server.client.post(
    '/pix/v2/cobr',
    cobrBody(rec.idRec, addDays(due, 70), { ajusteDiaUtil: false }),
    auth(acme),
  );
  assert.is(noAdjust.status, 201, noAdjust.text);
  assert.is(
    (await server.client.get(`/pix/v2/cobr/${noAdjust.body.txid}`, auth(acme))).body.tentativas[0].dataLiquidacao,
    addDays(due, 70),
  );

  const cancelled = await server.client.patch(`/pix/v2/cobr/${res.body.txid}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(cancelled.status, 200, cancelled.text);
  assert.is(cancelled.body.status, 'CANCELADA');
  assert.equal(cancelled.body.encerramento, {
    cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelada pelo usuario recebedor' },
  });
  assert.is(
    (await server.client.get(`/pix/v2/cobr/${res.body.txid}`, auth(acme))).body.tentativas[0].status,
    'CANCELADA',
  );
  assert.is((await server.client.post('/pix/v2/cobr', cobrBody(rec.idRec, addDays(due, 2)), auth(acme))).status, 201);
  const again = await server.client.patch(`/pix/v2/cobr/${res.body.txid}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(again.status, 400);
  const missing = await server.client.patch(`/pix/v2/cobr/${TXID(8)}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(missing.status, 404);
  assert.is(missing.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobRNaoEncontrado');

  const list = await server.client.get(
    `/pix/v2/cobr?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z&idRec=${rec.idRec}`,
    auth(acme),
  );
  assert.is(list.status, 200, list.text);
  assert.is(list.body.cobsr.length, 4);
  assert.is(list.body.parametros.idRec, rec.idRec);
  const byStatus = await server.client.get(
    `/pix/v2/cobr?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z&status=CANCELADA`,
    auth(acme),
  );
  assert.is(byStatus.body.cobsr.length, 1);
  assert.is(
    (await server.client.get('/pix/v2/cobr?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z', auth(other))).body
      .cobsr.length,
    0,
  );
  const bad = await server.client.get('/pix/v2/cobr?inicio=2026-02-01T00:00:00Z&fim=2026-01-01T00:00:00Z', auth(acme));
  assert.is(bad.status, 400);
  assert.is(bad.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobRConsultaInvalida');
});

test('cancellation is refused on the first settlement date; rejection, retries and their rules', async () => {
  const rec = await approvedRec({ valor: { valorMinimoRecebedor: '50.00' } });
  const txid = TXID(2);
  const due = nextBusinessDay(addDays(day, 3));
  const res = await server.client.put(
    `/pix/v2/cobr/${txid}`,
    cobrBody(rec.idRec, due, { valor: { original: '15000.00' } }),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  const notYet = await server.client.post(`/pix/v2/cobr/${txid}/retentativa/${addDays(due, 1)}`, undefined, auth(acme));
  assert.is(notYet.status, 400);
  await advanceDays(server, Math.round((Date.parse(due) - Date.parse(day)) / 86_400_000), acme, other);
  const late = await server.client.patch(`/pix/v2/cobr/${txid}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(late.status, 400);
  assert.is(late.body.violacoes[0].razao, `The first settlement attempt is on ${due}`);
  const before = await balance(acme);
  await server.services.jobs.runNow('recurrences');
  const rejected = (await server.client.get(`/pix/v2/cobr/${txid}`, auth(acme))).body;
  assert.is(rejected.status, 'ATIVA');
  assert.is(rejected.tentativas[0].status, 'REJEITADA');
  assert.equal(rejected.tentativas[0].rejeicao, {
    codigo: 'AM02',
    descricao: 'Valor acima do limite definido pelo pagador',
  });
  assert.is(await balance(acme), before);

  for (const data of [due, addDays(due, -1), addDays(due, 8)]) {
    const r = await server.client.post(`/pix/v2/cobr/${txid}/retentativa/${data}`, undefined, auth(acme));
    assert.is(r.status, 400, data);
    assert.is(r.body.type, OP);
  }
  const retry = await server.client.post(`/pix/v2/cobr/${txid}/retentativa/${addDays(due, 2)}`, undefined, auth(acme));
  assert.is(retry.status, 201, retry.text);
  assert.is(retry.body.tentativas.length, 2);
  assert.equal(
    { ...retry.body.tentativas[1], endToEndId: undefined, atualizacao: undefined },
    {
      dataLiquidacao: addDays(due, 2),
      tipo: 'RIFL',
      status: 'SOLICITADA',
      endToEndId: undefined,
      atualizacao: undefined,
    },
  );
  const pending = await server.client.post(
    `/pix/v2/cobr/${txid}/retentativa/${addDays(due, 3)}`,
    undefined,
    auth(acme),
  );
  assert.is(pending.status, 400);
  assert.is(
    (await server.client.post(`/pix/v2/cobr/${TXID(7)}/retentativa/${addDays(due, 3)}`, undefined, auth(acme))).status,
    404,
  );

  // NAO_PERMITE: the rejection ends the charge and retries are refused.
  day = await today(server, acme);
  const strict = await approvedRec({ politicaRetentativa: 'NAO_PERMITE', valor: { valorRec: '12000.00' } });
  const sDue = addDays(day, 1);
  const s = await server.client.put(
    `/pix/v2/cobr/${TXID(3)}`,
    cobrBody(strict.idRec, sDue, { valor: { original: '12000.00' }, ajusteDiaUtil: false }),
    auth(acme),
  );
  assert.is(s.status, 201, s.text);
  const refused = await server.client.post(
    `/pix/v2/cobr/${TXID(3)}/retentativa/${addDays(sDue, 2)}`,
    undefined,
    auth(acme),
  );
  assert.is(refused.status, 400);
  assert.equal(refused.body.violacoes[0], {
    razao: 'The recurrence policy is NAO_PERMITE',
    propriedade: 'politicaRetentativa',
    valor: 'NAO_PERMITE',
  });
  await advanceDays(server, 1, acme, other);
  await server.services.jobs.runNow('recurrences');
  const ended = (await server.client.get(`/pix/v2/cobr/${TXID(3)}`, auth(acme))).body;
  assert.is(ended.status, 'REJEITADA');
  assert.equal(ended.encerramento, {
    rejeicao: { codigo: 'AM02', descricao: 'Valor acima do limite definido pelo pagador' },
  });

  // The PERMITE_3R_7D charge fails its retry too, then expires after the window.
  await advanceDays(server, 2, acme, other);
  await server.services.jobs.runNow('recurrences');
  assert.is((await server.client.get(`/pix/v2/cobr/${txid}`, auth(acme))).body.tentativas[1].status, 'REJEITADA');
  await advanceDays(server, 8, acme, other);
  await server.services.jobs.runNow('recurrences');
  assert.is((await server.client.get(`/pix/v2/cobr/${txid}`, auth(acme))).body.status, 'EXPIRADA');
});

test('cancelling a recurrence cancels its unsettled charges', async () => {
  day = await today(server, acme);
  const rec = await approvedRec();
  const c = await server.client.post('/pix/v2/cobr', cobrBody(rec.idRec, addDays(day, 20)), auth(acme));
  assert.is(c.status, 201, c.text);
  const cancel = await server.client.patch(`/pix/v2/rec/${rec.idRec}`, { status: 'CANCELADA' }, auth(acme));
  assert.is(cancel.status, 200, cancel.text);
  const read = (await server.client.get(`/pix/v2/cobr/${c.body.txid}`, auth(acme))).body;
  assert.is(read.status, 'CANCELADA');
  assert.is(read.encerramento.cancelamento.codigo, 'CCLD');
});

test.run();
