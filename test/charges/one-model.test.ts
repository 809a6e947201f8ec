// One charge, two APIs: a charge made on one API and revised on the other is priced the same
// by both, by its signed payload, and by the payer who pays it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addCalendarDays } from '../../src/lib/business-days';
import { startTestServer, type TestServer } from '../support/server';
import { chargesCompany, fetchPayload, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let today: string;

test.before(async () => {
  server = await startTestServer({}, { backgroundJobs: false });
  acme = await chargesCompany(server, { name: 'Aurora Moda Ltda' });
  today = String((await server.client.get('/api/v1/sandbox/clock', { auth: acme.appID })).body.now).slice(0, 10);
});
test.after(async () => {
  await server.close();
});

const payer = { name: 'Joao Souza', taxID: '268.015.731-10' };

test('a platform OVERDUE charge whose discount the Pix API revises: both APIs, the payload and the payer agree', async () => {
  const dueDate = addCalendarDays(today, 10);
  const created = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'desconto-revisto',
      value: 45_000,
      type: 'OVERDUE',
      dueDate: `${dueDate}T12:00:00Z`,
      customer: { name: 'Ana Lima', taxID: '52998224725' },
      discount: { modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 5, value: 2_000 }] },
    },
    { auth: acme.appID },
  );
  assert.is(created.status, 200, created.text);
  assert.equal([created.body.charge.discount, created.body.charge.valueToPay], [2_000, 43_000]);
  const txid = created.body.charge.transactionID;
  const revised = await server.client.patch(
    `/pix/v2/cobv/${txid}`,
    {
      valor: {
        desconto: { modalidade: 1, descontoDataFixa: [{ data: addCalendarDays(dueDate, -5), valorPerc: '100.00' }] },
      },
    },
    { auth: acme.bearer },
  );
  assert.is(revised.status, 200, revised.text);

  const cobv = (await server.client.get(`/pix/v2/cobv/${txid}`, { auth: acme.bearer })).body;
  assert.is(cobv.valor.desconto.descontoDataFixa[0].valorPerc, '100.00');
  const payload = await fetchPayload(server, cobv.loc.location);
  assert.is(payload.status, 200);
  assert.equal([payload.payload.valor.desconto, payload.payload.valor.final], ['100.00', '350.00']);
  const platform = (await server.client.get('/api/v1/charge/desconto-revisto', { auth: acme.appID })).body.charge;
  assert.equal(
    [platform.discount, platform.valueWithDiscount, platform.valueToPay, platform.discountSettings],
    [
      10_000,
      35_000,
      35_000,
      { modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 5, value: 10_000 }] },
    ],
  );
  // The payer's bank reads the amount due from the payload: it pays 350.00 and no more.
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: platform.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  assert.is(paid.body.value, 35_000);
  const after = (await server.client.get('/api/v1/charge/desconto-revisto', { auth: acme.appID })).body.charge;
  assert.is(after.status, 'COMPLETED');
});

test('a cob whose expiry the platform API changes: the Pix API and the payload read the new one', async () => {
  const txid = 'umModeloSoCobRevistaPelaPlataforma1';
  const made = await server.client.put(
    `/pix/v2/cob/${txid}`,
    { calendario: { expiracao: 3600 }, valor: { original: '12.34' }, chave: acme.key },
    { auth: acme.bearer },
  );
  assert.is(made.status, 201, made.text);
  const expiresDate = new Date(Date.parse(made.body.calendario.criacao) + 7200_000).toISOString();
  const patched = await server.client.patch(`/api/v1/charge/${txid}`, { expiresDate }, { auth: acme.appID });
  assert.is(patched.status, 200, patched.text);
  assert.is(patched.body.charge.expiresDate, expiresDate);
  const cob = (await server.client.get(`/pix/v2/cob/${txid}`, { auth: acme.bearer })).body;
  assert.equal([cob.calendario.expiracao, cob.revisao], [7200, 1]);
  const payload = await fetchPayload(server, cob.loc.location);
  assert.equal([payload.payload.calendario.expiracao, payload.payload.revisao], [7200, 1]);
  const platform = (await server.client.get(`/api/v1/charge/${txid}`, { auth: acme.appID })).body.charge;
  assert.equal([platform.expiresIn, platform.expiresDate, platform.status], [7200, expiresDate, 'ACTIVE']);
});

test.run();
