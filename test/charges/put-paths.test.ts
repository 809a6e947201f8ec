// PUT /cob/{txid} and /cobv/{txid} have two paths: the single statement that creates a charge
// on an unused txid, and the transaction that locks the txid (a revision, a location to
// claim, any refusal). Both run the same rules: a refused request gets the same answer on a
// new txid as on a taken one, and through POST /cob, and creates nothing.
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

const auth = () => ({ auth: acme.bearer });
const cob = (extra: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  valor: { original: '12.00' },
  chave: acme.key,
  ...extra,
});
const cobv = (extra: Record<string, unknown> = {}) => ({
  calendario: { dataDeVencimento: '2099-01-10' },
  devedor: { cpf: '12345678909', nome: 'Mariana Costa Ribeiro' },
  valor: { original: '30.00' },
  chave: acme.key,
  ...extra,
});
const refusal = (res: { status: number; text: string; body: any }) => {
  assert.is(res.status, 400, res.text);
  const { type, title, status, detail, violacoes } = res.body;
  return { type, title, status, detail, violacoes };
};
const total = async (kind: 'cob' | 'cobv') => {
  const res = await server.client.get(`/pix/v2/${kind}?inicio=2020-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z`, auth());
  assert.is(res.status, 200, res.text);
  return res.body.parametros.paginacao.quantidadeTotalDeItens as number;
};

test('a refused cob: the same answer on a new txid, a taken one and POST, nothing created', async () => {
  const taken = TXID(1);
  assert.is((await server.client.put(`/pix/v2/cob/${taken}`, cob(), auth())).status, 201);
  const cases: Record<string, unknown> = {
    'the amount': cob({ valor: { original: '0.00' } }),
    "another company's key": cob({ chave: other.key }),
    'an unknown key': cob({ chave: 'nobody@example.com' }),
    'the debtor': cob({ devedor: { cpf: '12345678900', nome: 'X' } }),
    'a withdrawal the payer may change': cob({
      valor: { original: '0.00', modalidadeAlteracao: 1, retirada: { saque: { valor: '5.00' } } },
    }),
  };
  const before = await total('cob');
  let n = 10;
  for (const [rule, body] of Object.entries(cases)) {
    const fresh = TXID(n++);
    const onNew = refusal(await server.client.put(`/pix/v2/cob/${fresh}`, body, auth()));
    assert.equal(refusal(await server.client.put(`/pix/v2/cob/${taken}`, body, auth())), onNew, rule);
    assert.equal(refusal(await server.client.post('/pix/v2/cob', body, auth())), onNew, rule);
    assert.is((await server.client.get(`/pix/v2/cob/${fresh}`, auth())).status, 404, rule);
  }
  assert.is(await total('cob'), before, 'no charge created');
});

test('a refused cobv: the same answer on a new txid and a taken one, nothing created', async () => {
  const taken = TXID(2);
  assert.is((await server.client.put(`/pix/v2/cobv/${taken}`, cobv(), auth())).status, 201);
  const cases: Record<string, unknown> = {
    'a due date before the creation': cobv({ calendario: { dataDeVencimento: '2020-01-10' } }),
    'no debtor': cobv({ devedor: undefined }),
    'a rebate above the amount': cobv({
      valor: { original: '30.00', abatimento: { modalidade: 1, valorPerc: '40.00' } },
    }),
    'an unknown key': cobv({ chave: 'nobody@example.com' }),
  };
  const before = await total('cobv');
  let n = 30;
  for (const [rule, body] of Object.entries(cases)) {
    const fresh = TXID(n++);
    const onNew = refusal(await server.client.put(`/pix/v2/cobv/${fresh}`, body, auth()));
    assert.equal(refusal(await server.client.put(`/pix/v2/cobv/${taken}`, body, auth())), onNew, rule);
    assert.is((await server.client.get(`/pix/v2/cobv/${fresh}`, auth())).status, 404, rule);
  }
  assert.is(await total('cobv'), before, 'no charge created');
});

test.run();
