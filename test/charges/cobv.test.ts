// Due-date charges (cobv): creation with the standard's validations, revisions, and the
// payload's valor.final for the intended payment date (DPP): discounts before the due date,
// fine and daily interest after it, business days honouring national holidays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { TXID, chargesCompany, decodeBrCode, fetchPayload, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server, { name: 'Colegio Horizonte', taxID: '33810456000176' });
  other = await chargesCompany(server);
});
test.after(async () => server.close());

const auth = (c: ChargesCompany) => ({ auth: c.bearer });
const devedor = {
  cpf: '70214539814',
  nome: 'Joao Pedro Almeida',
  logradouro: 'Rua Vergueiro, 3185',
  cidade: 'Sao Paulo',
  uf: 'SP',
  cep: '04101300',
  email: 'joao@email.com.br',
};
const cobv = (extra: Record<string, unknown> = {}, valor: Record<string, unknown> = {}) => ({
  calendario: { dataDeVencimento: '2027-03-10', validadeAposVencimento: 30 },
  devedor,
  valor: {
    original: '1450.00',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 2, valorPerc: '1.00' },
    desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-03-05', valorPerc: '72.50' }] },
    ...valor,
  },
  chave: acme.key,
  solicitacaoPagador: 'Mensalidade de marco',
  ...extra,
});

async function payloadOn(location: string, dpp: string) {
  const res = await fetchPayload(server, `${location}?DPP=${dpp}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.payload;
}

test('PUT /cobv/{txid}: a due-date charge with debtor, receiver and a location without amount', async () => {
  const res = await server.client.put(`/pix/v2/cobv/${TXID(1)}`, cobv(), auth(acme));
  assert.is(res.status, 201, res.text);
  const c = res.body;
  assert.equal(c.calendario, {
    criacao: c.calendario.criacao,
    dataDeVencimento: '2027-03-10',
    validadeAposVencimento: 30,
  });
  assert.equal(c.devedor, devedor);
  assert.equal(c.recebedor, {
    cnpj: '33810456000176',
    nome: 'Colegio Horizonte',
    nomeFantasia: 'Colegio Horizonte',
    logradouro: 'Avenida Paulista, 1000',
    cidade: 'Sao Paulo',
    uf: 'SP',
    cep: '01310100',
  });
  assert.equal(c.valor, cobv().valor);
  assert.is(c.status, 'ATIVA');
  assert.is(c.loc.tipoCob, 'cobv');
  assert.match(c.location, /\/qr\/v2\/cobv\/[0-9a-f-]{36}$/);
  const code = decodeBrCode(c.pixCopiaECola);
  assert.is(code.locationUrl, c.location);
  assert.is(code.amount, undefined);
  const platform = await server.client.get(`/api/v1/charge/${TXID(1)}`, { auth: acme.appID });
  assert.is(platform.body.charge.type, 'OVERDUE');
  // the end of each day in Brasília, written with its offset
  assert.is(platform.body.charge.dueDate, '2027-03-10T23:59:59.999-03:00');
  assert.is(platform.body.charge.expiresDate, '2027-04-09T23:59:59.999-03:00');
  assert.is(platform.body.charge.daysAfterDueDate, 30);
  assert.is(platform.body.charge.value, 145000);
  assert.is(platform.body.charge.valueToPay, 145000 - 7250);
});

test('payload amounts by DPP: discount until its date, fine and daily interest after the due date', async () => {
  const { location } = (await server.client.get(`/pix/v2/cobv/${TXID(1)}`, auth(acme))).body;
  const early = await payloadOn(location, '2027-03-05');
  assert.equal(early.valor, {
    original: '1450.00',
    multa: '0.00',
    juros: '0.00',
    abatimento: '0.00',
    desconto: '72.50',
    final: '1377.50',
  });
  assert.is(early.calendario.dataDeVencimento, '2027-03-10');
  assert.is(early.calendario.validadeAposVencimento, 30);
  assert.is(early.txid, TXID(1));
  assert.equal(early.devedor, devedor);
  assert.is(early.recebedor.cnpj, '33810456000176');
  assert.ok(early.calendario.apresentacao);
  assert.equal((await payloadOn(location, '2027-03-06')).valor.final, '1450.00');
  assert.equal((await payloadOn(location, '2027-03-10')).valor.final, '1450.00');
  // 2 days late: fine 2% (29.00) + 1% a day x 2 (29.00)
  assert.equal((await payloadOn(location, '2027-03-12')).valor, {
    original: '1450.00',
    multa: '29.00',
    juros: '29.00',
    abatimento: '0.00',
    desconto: '0.00',
    final: '1508.00',
  });
  assert.equal((await payloadOn(location, '2027-04-09')).valor.juros, '435.00');
  const after = await fetchPayload(server, `${location}?DPP=2027-04-10`);
  assert.is(after.status, 400);
  assert.is(after.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida');
  assert.is(after.body.violacoes[0].propriedade, 'DPP');
  const past = await fetchPayload(server, `${location}?DPP=2020-01-01`);
  assert.is(past.status, 400);
  const city = await fetchPayload(server, `${location}?codMun=9999999`);
  assert.is(city.status, 400);
  assert.is(city.body.violacoes[0].propriedade, 'codMun');
  const sp = await fetchPayload(server, `${location}?codMun=3550308&DPP=2027-03-05`);
  assert.is(sp.status, 200);
  assert.is(sp.payload.valor.final, '1377.50');
});

test('a due date on a holiday: paying on the next business day is on time, later counts from the due date', async () => {
  const res = await server.client.put(
    `/pix/v2/cobv/${TXID(2)}`,
    cobv(
      { calendario: { dataDeVencimento: '2027-12-25', validadeAposVencimento: 10 } },
      { desconto: undefined, juros: { modalidade: 6, valorPerc: '1.00' } },
    ),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  assert.is((await payloadOn(res.body.location, '2027-12-27')).valor.final, '1450.00');
  // late on Tuesday 28: fine 29.00; juros 1% per business day from the 25th: 27 and 28 -> 29.00
  assert.equal((await payloadOn(res.body.location, '2027-12-28')).valor, {
    original: '1450.00',
    multa: '29.00',
    juros: '29.00',
    abatimento: '0.00',
    desconto: '0.00',
    final: '1508.00',
  });
});

test('abatimento, percentage and per-day discounts', async () => {
  const res = await server.client.put(
    `/pix/v2/cobv/${TXID(3)}`,
    cobv({}, { abatimento: { modalidade: 1, valorPerc: '50.00' }, desconto: { modalidade: 5, valorPerc: '0.10' } }),
    auth(acme),
  );
  assert.is(res.status, 201, res.text);
  // 5 calendar days early: 0.10% x 5 of 1450.00 = 7.25
  assert.equal((await payloadOn(res.body.location, '2027-03-05')).valor, {
    original: '1450.00',
    multa: '0.00',
    juros: '0.00',
    abatimento: '50.00',
    desconto: '7.25',
    final: '1392.75',
  });
});

test('the standard refusals: CobVOperacaoInvalida', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [cobv({ calendario: { dataDeVencimento: '2020-01-10' } }), 'calendario.dataDeVencimento'],
    [cobv({}, { original: '0.00' }), 'valor.original'],
    [cobv({ chave: other.key }), 'chave'],
    [cobv({ devedor: { cpf: '70214539815', nome: 'X' } }), 'devedor.cpf'],
    [cobv({}, { abatimento: { modalidade: 1, valorPerc: '1450.00' } }), 'valor.abatimento.valorPerc'],
    [cobv({}, { abatimento: { modalidade: 2, valorPerc: '100.00' } }), 'valor.abatimento.valorPerc'],
    [cobv({}, { multa: { modalidade: 2, valorPerc: '100.00' } }), 'valor.multa.valorPerc'],
    [
      cobv({}, { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-03-11', valorPerc: '10.00' }] } }),
      'valor.desconto.descontoDataFixa.data',
    ],
    [
      cobv({}, { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-03-01', valorPerc: '1450.00' }] } }),
      'valor.desconto',
    ],
    [
      cobv({}, { desconto: { modalidade: 2, descontoDataFixa: [{ data: '2027-03-01', valorPerc: '100.00' }] } }),
      'valor.desconto',
    ],
    [cobv({}, { desconto: { modalidade: 1, valorPerc: '10.00' } }), 'valor.desconto.valorPerc'],
    [
      cobv({}, { desconto: { modalidade: 3, descontoDataFixa: [{ data: '2027-03-01', valorPerc: '10.00' }] } }),
      'valor.desconto.descontoDataFixa',
    ],
    [
      cobv(
        {},
        {
          desconto: {
            modalidade: 3,
            valorPerc: '1.00',
            descontoDataFixa: [{ data: '2027-03-01', valorPerc: '10.00' }],
          },
        },
      ),
      'body.valor.desconto',
    ],
  ];
  let n = 10;
  for (const [body, field] of cases) {
    const res = await server.client.put(`/pix/v2/cobv/${TXID(n++)}`, body, auth(acme));
    assert.is(res.status, 400, `${field}: ${res.text}`);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida');
    assert.ok(
      res.body.violacoes.some((v: any) => v.propriedade === field),
      `${field}: ${res.text}`,
    );
  }
  const noDevedor = await server.client.put(`/pix/v2/cobv/${TXID(40)}`, { ...cobv(), devedor: undefined }, auth(acme));
  assert.is(noDevedor.status, 400);
  const negative = await server.client.put(
    `/pix/v2/cobv/${TXID(41)}`,
    cobv({ calendario: { dataDeVencimento: '2027-03-10', validadeAposVencimento: -1 } }),
    auth(acme),
  );
  assert.is(negative.status, 400);
  const cobLoc = await server.client.post('/pix/v2/loc', { tipoCob: 'cob' }, auth(acme));
  const wrongLoc = await server.client.put(
    `/pix/v2/cobv/${TXID(42)}`,
    cobv({ loc: { id: cobLoc.body.id } }),
    auth(acme),
  );
  assert.is(wrongLoc.status, 400);
  // a txid of a cob is not a cobv
  await server.client.put(
    `/pix/v2/cob/${TXID(43)}`,
    { calendario: {}, valor: { original: '1.00' }, chave: acme.key },
    auth(acme),
  );
  assert.is((await server.client.put(`/pix/v2/cobv/${TXID(43)}`, cobv(), auth(acme))).status, 400);
  assert.is((await server.client.get(`/pix/v2/cobv/${TXID(43)}`, auth(acme))).status, 404);
  const notFound = await server.client.get(`/pix/v2/cobv/${TXID(1)}`, auth(other));
  assert.is(notFound.status, 404);
  assert.is(notFound.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada');
});

test('PATCH revises the due date and amounts; removal alone; every revision readable', async () => {
  const txid = TXID(4);
  await server.client.put(`/pix/v2/cobv/${txid}`, cobv(), auth(acme));
  const r1 = await server.client.patch(
    `/pix/v2/cobv/${txid}`,
    { calendario: { dataDeVencimento: '2027-03-15' }, valor: { original: '1380.00' } },
    auth(acme),
  );
  assert.is(r1.status, 200, r1.text);
  assert.is(r1.body.revisao, 1);
  assert.is(r1.body.calendario.dataDeVencimento, '2027-03-15');
  assert.is(r1.body.calendario.validadeAposVencimento, 30);
  assert.is(r1.body.valor.original, '1380.00');
  assert.equal(r1.body.valor.multa, { modalidade: 2, valorPerc: '2.00' });
  const bad = await server.client.patch(
    `/pix/v2/cobv/${txid}`,
    { calendario: { dataDeVencimento: '2027-03-01' } },
    auth(acme),
  );
  assert.is(bad.status, 400);
  const mixed = await server.client.patch(
    `/pix/v2/cobv/${txid}`,
    { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' },
    auth(acme),
  );
  assert.is(mixed.status, 400);
  const removed = await server.client.patch(
    `/pix/v2/cobv/${txid}`,
    { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    auth(acme),
  );
  assert.is(removed.status, 200, removed.text);
  assert.is(removed.body.revisao, 2);
  const r0 = await server.client.get(`/pix/v2/cobv/${txid}?revisao=0`, auth(acme));
  assert.is(r0.body.valor.original, '1450.00');
  assert.is(r0.body.status, 'ATIVA');
  assert.is(
    (await server.client.get(`/pix/v2/cobv/${txid}?revisao=3`, auth(acme))).body.type,
    'https://pix.bcb.gov.br/api/v2/error/CobVConsultaInvalida',
  );
  assert.is((await fetchPayload(server, removed.body.location)).status, 410);
});

test('GET /cobv lists due-date charges only', async () => {
  const start = new Date(Date.now() - 3600_000).toISOString();
  const end = new Date(Date.now() + 3600_000).toISOString();
  const res = await server.client.get(`/pix/v2/cobv?inicio=${start}&fim=${end}&cpf=70214539814`, auth(acme));
  assert.is(res.status, 200, res.text);
  assert.equal(
    res.body.cobs.map((c: any) => c.txid),
    [TXID(1), TXID(2), TXID(3), TXID(4)],
  );
  assert.is(res.body.parametros.cpf, '70214539814');
});

test('a tolerant PSP: integer modalidades written as strings and a CEP with its hyphen are stored normalised', async () => {
  const body = cobv(
    { devedor: { ...devedor, cep: '04101-300' } },
    {
      multa: { modalidade: '2', valorPerc: '2.00' },
      juros: { modalidade: '2', valorPerc: '1.00' },
      desconto: { modalidade: '1', descontoDataFixa: [{ data: '2027-03-05', valorPerc: '72.50' }] },
    },
  );
  const res = await server.client.put(`/pix/v2/cobv/${TXID(90)}`, body, auth(acme));
  assert.is(res.status, 201, res.text);
  const read = await server.client.get(`/pix/v2/cobv/${TXID(90)}`, auth(acme));
  assert.is(read.body.devedor.cep, '04101300');
  assert.equal(
    [read.body.valor.multa.modalidade, read.body.valor.juros.modalidade, read.body.valor.desconto.modalidade],
    [2, 2, 1],
  );
  // What is wrong stays refused: a modalidade that is no integer, a CEP of another shape.
  for (const wrong of [
    cobv({}, { multa: { modalidade: '2.5', valorPerc: '2.00' } }),
    cobv({}, { multa: { modalidade: 'dois', valorPerc: '2.00' } }),
    cobv({ devedor: { ...devedor, cep: '0410-1300' } }),
  ]) {
    const refused = await server.client.put(`/pix/v2/cobv/${TXID(91)}`, wrong, auth(acme));
    assert.is(refused.status, 400, refused.text);
  }
});

test.run();
