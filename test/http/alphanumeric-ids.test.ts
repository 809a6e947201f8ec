// The alphanumeric CNPJ and ISPB of the Pix standard's 2.9.0 where both APIs read them: a
// platform charge's customer, a sandbox company, a cob's withdrawal provider, a confirmation
// request's payer PSP (and the EndToEndIds made from it), a manual payment's PSP, a KYC
// onboarding and a cashback. Check digits of the alphanumeric CNPJ are verified.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findDefaultKey } from '../../src/keys/keys.repository';
import { auditLedger } from '../support/ledger-auditor';
import { startTestServer, type TestServer } from '../support/server';
import { addDays, recBody, recCompany, today, type RecCompany } from '../recurrences/support';

// The Receita Federal's example of an alphanumeric CNPJ, and a second one made by its rule.
const CNPJ = '12ABC34501DE35';
const CNPJ_MASKED = '12.abc.345/01de-35';
const OTHER_CNPJ = 'A1B2C3D4000193';
const ISPB = '1234ABCD';

let server: TestServer;
let acme: RecCompany;
let day: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await recCompany(server, { name: 'Fibra Norte Telecom', taxID: CNPJ_MASKED });
  day = await today(server, acme);
});
test.after(async () => {
  await auditLedger(server.database.db);
  await server.close();
});

const platform = () => ({ auth: acme.appID });
const pix = () => ({ auth: acme.bearer });

test('a sandbox company takes an alphanumeric CNPJ (masked, any case) and is the receiver of its recs', async () => {
  const company = await server.database.db
    .selectFrom('companies')
    .select('tax_id')
    .where('id', '=', acme.companyId)
    .executeTakeFirstOrThrow();
  assert.is(company.tax_id, CNPJ);
  const rec = await server.client.post('/pix/v2/rec', recBody(day), pix());
  assert.is(rec.status, 201, rec.text);
  assert.is(rec.body.recebedor.cnpj, CNPJ);
});

test("a platform charge's customer takes an alphanumeric CNPJ; wrong check digits are refused", async () => {
  const res = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'alnum-1', value: 1500, customer: { name: 'Loja Alfa', taxID: '12.ABC.345/01DE-35' } },
    platform(),
  );
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.charge.customer.taxID, { taxID: CNPJ, type: 'BR:CNPJ' });
  const cob = await server.client.get(`/pix/v2/cob/${res.body.charge.transactionID}`, pix());
  assert.is(cob.body.devedor.cnpj, CNPJ, 'the same charge as a cob names the debtor by its CNPJ');

  const wrong = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'alnum-2', value: 1500, customer: { name: 'Loja Alfa', taxID: '12ABC34501DE36' } },
    platform(),
  );
  assert.is(wrong.status, 400, wrong.text);
  assert.match(JSON.stringify(wrong.body), /check digits/);
});

test('a cob takes an alphanumeric ISPB as its withdrawal provider and an alphanumeric debtor CNPJ', async () => {
  const chave = (await findDefaultKey(server.database.db, acme.companyId))!.key;
  const res = await server.client.put(
    '/pix/v2/cob/alnumSaque000000000000000000001',
    {
      calendario: { expiracao: 1800 },
      devedor: { cnpj: OTHER_CNPJ, nome: 'Mercado Beta' },
      valor: {
        original: '0.00',
        modalidadeAlteracao: 0,
        retirada: {
          saque: {
            valor: '200.00',
            modalidadeAlteracao: 0,
            modalidadeAgente: 'AGTEC',
            prestadorDoServicoDeSaque: ISPB,
          },
        },
      },
      chave,
    },
    pix(),
  );
  assert.is(res.status, 201, res.text);
  assert.is(res.body.valor.retirada.saque.prestadorDoServicoDeSaque, ISPB);
  assert.is(res.body.devedor.cnpj, OTHER_CNPJ);
});

test("a confirmation request names an alphanumeric payer PSP; the cobr's attempt carries its ISPB", async () => {
  const rec = (await server.client.post('/pix/v2/rec', recBody(day, { vinculo: alphanumericDebtor() }), pix())).body;
  const solic = await server.client.post(
    '/pix/v2/solicrec',
    {
      idRec: rec.idRec,
      calendario: { dataExpiracaoSolicitacao: `${addDays(day, 5)}T12:00:00Z` },
      destinatario: { agencia: '0001', conta: '123456', ispbParticipante: ISPB, cnpj: OTHER_CNPJ },
    },
    pix(),
  );
  assert.is(solic.status, 201, solic.text);
  assert.equal(solic.body.pagador, { cnpj: OTHER_CNPJ, ispbParticipante: ISPB });
  const accepted = await server.client.post(`/api/v1/sandbox/rec/${rec.idRec}/accept`);
  assert.is(accepted.status, 200, accepted.text);
  const account = await server.database.db
    .selectFrom('bank_accounts')
    .select(['branch', 'account_number'])
    .where('id', '=', acme.accountId)
    .executeTakeFirstOrThrow();
  const due = addDays(day, 10);
  const cobr = await server.client.put(
    '/pix/v2/cobr/alnumCobr0000000000000000000001',
    {
      idRec: rec.idRec,
      calendario: { dataDeVencimento: due },
      valor: { original: '119.90' },
      ajusteDiaUtil: true,
      recebedor: { agencia: account.branch, conta: account.account_number, tipoConta: 'CORRENTE' },
    },
    pix(),
  );
  assert.is(cobr.status, 201, cobr.text);
  const read = (await server.client.get('/pix/v2/cobr/alnumCobr0000000000000000000001', pix())).body;
  assert.match(read.tentativas[0].endToEndId, new RegExp(`^E${ISPB}\\d{12}[a-zA-Z0-9]{11}$`));
});

function alphanumericDebtor() {
  return {
    objeto: 'Plano Fibra 500 Mega',
    devedor: { cnpj: OTHER_CNPJ, nome: 'Mercado Beta' },
    contrato: 'FN-2026-009001',
  };
}

test('a manual payment goes to an institution with an alphanumeric ISPB', async () => {
  const pixKey = (await findDefaultKey(server.database.db, acme.companyId))!.key;
  const funded = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey,
    value: 50_000,
    payer: { name: 'Joao Souza', taxID: '26801573110' },
  });
  assert.is(funded.status, 200, funded.text);
  const res = await server.client.post(
    '/api/v1/payment',
    {
      correlationID: 'alnum-manual-1',
      value: 1000,
      type: 'MANUAL',
      psp: { id: ISPB },
      holder: { name: 'Mercado Beta', taxID: { taxID: OTHER_CNPJ, type: 'BR:CNPJ' } },
      account: { branch: '0001', account: '1234567', accountType: 'CACC' },
      autoApprove: true,
    },
    platform(),
  );
  assert.is(res.status, 200, res.text);
  assert.is(res.body.payment.status, 'CONFIRMED', res.text);
  assert.equal(res.body.payment.psp, { id: ISPB });
  assert.match(res.body.transaction.endToEndId, /^E99999999/, 'sent by this server');
});

test('a KYC onboarding and a cashback take an alphanumeric CNPJ', async () => {
  const kyc = await server.client.post(
    '/api/v1/kyc/onboarding',
    { taxID: '12.ABC.345/01DE-35', representatives: [{ taxID: '52998224725', email: 'ana@example.com.br' }] },
    platform(),
  );
  assert.ok(kyc.status === 200 || kyc.status === 201, kyc.text);
  const cashback = await server.client.post('/api/v1/cashback-fidelity', { taxID: OTHER_CNPJ, value: 300 }, platform());
  assert.ok(cashback.status === 200 || cashback.status === 201, cashback.text);
  const balance = await server.client.get(`/api/v1/cashback-fidelity/balance/${OTHER_CNPJ.toLowerCase()}`, platform());
  assert.is(balance.status, 200, balance.text);
  assert.is(balance.body.balance, 300);
});

test.run();
