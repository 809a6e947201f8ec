// What the Pix API accepts of the official examples as a tolerant PSP would, and what it keeps
// refusing everywhere: an integer-valued string where an integer enum is asked and a CEP with
// its hyphen are stored in their normal form (cobv multa/juros/desconto, cobr devedor.cep);
// a CPF with wrong check digits is refused in every request that names one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findDefaultKey } from '../../src/keys/keys.repository';
import { addDays, recBody, recCompany, today, type RecCompany } from '../recurrences/support';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: RecCompany;
let key: string;
let day: string;
let account: { branch: string; account_number: string };

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await recCompany(server);
  key = (await findDefaultKey(server.database.db, acme.companyId))!.key;
  day = await today(server, acme);
  account = await server.database.db
    .selectFrom('bank_accounts')
    .select(['branch', 'account_number'])
    .where('id', '=', acme.accountId)
    .executeTakeFirstOrThrow();
});
test.after(async () => server.close());

const auth = () => ({ auth: acme.bearer });
// The CPF of the official solicrec example: its check digits are wrong.
const BAD_CPF = '15231470190';
let n = 0;
const txid = () => `tolerance${String(++n).padStart(6, '0')}abcdefghijklm`;

async function approvedRec(): Promise<string> {
  const loc = (await server.client.post('/pix/v2/locrec', undefined, auth())).body;
  const rec = await server.client.post('/pix/v2/rec', recBody(day, { loc: loc.id }), auth());
  assert.is(rec.status, 201, rec.text);
  assert.is((await server.client.post(`/api/v1/sandbox/rec/${rec.body.idRec}/accept`)).status, 200);
  return rec.body.idRec;
}

test('cobr PUT and POST accept devedor.cep with its hyphen and store 8 digits', async () => {
  for (const put of [true, false]) {
    const idRec = await approvedRec();
    const body = {
      idRec,
      calendario: { dataDeVencimento: addDays(day, 3) },
      valor: { original: '119.90' },
      ajusteDiaUtil: true,
      devedor: {
        email: 'carlos@email.com.br',
        logradouro: 'Rua das Flores 10',
        cidade: 'Itajai',
        uf: 'SC',
        cep: '89256-140',
      },
      recebedor: { agencia: account.branch, conta: account.account_number, tipoConta: 'CORRENTE' },
    };
    const res = put
      ? await server.client.put(`/pix/v2/cobr/${txid()}`, body, auth())
      : await server.client.post('/pix/v2/cobr', body, auth());
    assert.is(res.status, 201, res.text);
    assert.is(res.body.devedor.cep, '89256140');
    assert.is((await server.client.get(`/pix/v2/cobr/${res.body.txid}`, auth())).body.devedor.cep, '89256140');
  }
  const malformed = await server.client.post(
    '/pix/v2/cobr',
    {
      idRec: await approvedRec(),
      calendario: { dataDeVencimento: addDays(day, 3) },
      valor: { original: '119.90' },
      ajusteDiaUtil: true,
      devedor: { cep: '8925-6140' },
      recebedor: { agencia: account.branch, conta: account.account_number, tipoConta: 'CORRENTE' },
    },
    auth(),
  );
  assert.is(malformed.status, 400, 'only the hyphen of a CEP is forgiven');
});

test('cobv accepts integer modalidades written as strings and stores the integers', async () => {
  const res = await server.client.put(
    `/pix/v2/cobv/${txid()}`,
    {
      calendario: { dataDeVencimento: addDays(day, 20), validadeAposVencimento: 30 },
      devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
      valor: {
        original: '123.45',
        multa: { modalidade: '2', valorPerc: '15.00' },
        juros: { modalidade: '2', valorPerc: '2.00' },
        desconto: { modalidade: '1', descontoDataFixa: [{ data: addDays(day, 10), valorPerc: '30.00' }] },
      },
      chave: key,
    },
    auth(),
  );
  assert.is(res.status, 201, res.text);
  assert.is(res.body.valor.multa.modalidade, 2);
  assert.is(res.body.valor.juros.modalidade, 2);
  assert.is(res.body.valor.desconto.modalidade, 1);
  const wrong = await server.client.put(
    `/pix/v2/cobv/${txid()}`,
    {
      calendario: { dataDeVencimento: addDays(day, 20) },
      devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
      valor: { original: '123.45', multa: { modalidade: 'dois', valorPerc: '15.00' } },
      chave: key,
    },
    auth(),
  );
  assert.is(wrong.status, 400, 'a string that is no integer is still refused');
});

test('a CPF with wrong check digits is refused in every Pix API request that names one', async () => {
  const devedor = { cpf: BAD_CPF, nome: 'Fulano de Tal' };
  const cob = { calendario: { expiracao: 3600 }, devedor, valor: { original: '10.00' }, chave: key };
  const cobv = {
    calendario: { dataDeVencimento: addDays(day, 20) },
    devedor,
    valor: { original: '10.00' },
    chave: key,
  };
  const goodCob = (await server.client.put(`/pix/v2/cob/${txid()}`, { ...cob, devedor: undefined }, auth())).body;
  const goodCobv = (
    await server.client.put(`/pix/v2/cobv/${txid()}`, { ...cobv, devedor: { cpf: '12345678909', nome: 'Ana' } }, auth())
  ).body;
  const rec = (await server.client.post('/pix/v2/rec', recBody(day), auth())).body;
  const requests: Array<[string, () => Promise<{ status: number; body: any }>]> = [
    ['PUT /cob', () => server.client.put(`/pix/v2/cob/${txid()}`, cob, auth())],
    ['POST /cob', () => server.client.post('/pix/v2/cob', cob, auth())],
    ['PATCH /cob', () => server.client.patch(`/pix/v2/cob/${goodCob.txid}`, { devedor }, auth())],
    ['PUT /cobv', () => server.client.put(`/pix/v2/cobv/${txid()}`, cobv, auth())],
    ['PATCH /cobv', () => server.client.patch(`/pix/v2/cobv/${goodCobv.txid}`, { devedor }, auth())],
    [
      'POST /rec',
      () => server.client.post('/pix/v2/rec', recBody(day, { vinculo: { contrato: 'X-1', devedor } }), auth()),
    ],
    [
      'POST /solicrec',
      () =>
        server.client.post(
          '/pix/v2/solicrec',
          {
            idRec: rec.idRec,
            calendario: { dataExpiracaoSolicitacao: `${addDays(day, 5)}T12:00:00Z` },
            destinatario: { conta: '458721', ispbParticipante: '60701190', cpf: BAD_CPF },
          },
          auth(),
        ),
    ],
  ];
  for (const [label, send] of requests) {
    const res = await send();
    assert.is(res.status, 400, `${label} answered ${res.status}`);
    assert.match(JSON.stringify(res.body.violacoes ?? res.body), /cpf/i, label);
  }
  // In a batch the item is NEGADA with its problem.
  const lote = await server.client.put(
    '/pix/v2/lotecobv/771',
    { descricao: 'Lote', cobsv: [{ ...cobv, txid: txid() }] },
    auth(),
  );
  assert.is(lote.status, 202, lote.text);
  const read = (await server.client.get('/pix/v2/lotecobv/771', auth())).body;
  assert.is(read.cobsv[0].status, 'NEGADA');
  assert.match(JSON.stringify(read.cobsv[0].problema), /cpf/i);
});

test.run();
