// A charge paid through the sandbox payer reads the same in both APIs: COMPLETED with paidAt
// on the platform, CONCLUIDA with the Pix that paid it on the Pix API; a paid OVERDUE charge
// was paid its amount of the day.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../support/server';
import { chargesCompany, fetchPayload, decodeBrCode, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
});
test.after(async () => server.close());

const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

test('a paid DYNAMIC charge: COMPLETED on the platform, CONCLUIDA with its pix on the Pix API', async () => {
  const made = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'paid-1', value: 15990 },
    { auth: acme.appID },
  );
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: made.body.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  const charge = (await server.client.get('/api/v1/charge/paid-1', { auth: acme.appID })).body.charge;
  assert.is(charge.status, 'COMPLETED');
  assert.ok(charge.paidAt);
  const cob = await server.client.get(`/pix/v2/cob/${charge.identifier}`, { auth: acme.bearer });
  assert.is(cob.status, 200, cob.text);
  assert.is(cob.body.status, 'CONCLUIDA');
  assert.is(cob.body.revisao, 0);
  assert.is(cob.body.pix.length, 1);
  assert.is(cob.body.pix[0].valor, '159.90');
  assert.is(cob.body.pix[0].txid, charge.identifier);
  assert.is(cob.body.pix[0].endToEndId, paid.body.endToEndId ?? cob.body.pix[0].endToEndId);
  const list = await server.client.get(
    `/pix/v2/cob?inicio=2020-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z&status=CONCLUIDA`,
    { auth: acme.bearer },
  );
  assert.equal(
    list.body.cobs.map((c: any) => c.txid),
    [charge.identifier],
  );
  assert.is(list.body.cobs[0].pix.length, 1);
  // a paid charge cannot be changed, deleted or paid again
  assert.is(
    (
      await server.client.patch(
        `/pix/v2/cob/${charge.identifier}`,
        { valor: { original: '1.00' } },
        { auth: acme.bearer },
      )
    ).status,
    400,
  );
  const del = await server.client.delete('/api/v1/charge/paid-1', { auth: acme.appID });
  assert.is(del.status, 400);
  assert.is(del.body.error, 'Cannot delete a completed charge');
  assert.is((await server.client.post('/api/v1/sandbox/pay', { brCode: made.body.brCode, payer })).status >= 400, true);
  const payload = await fetchPayload(server, decodeBrCode(made.body.brCode).locationUrl!);
  assert.is(payload.payload.status, 'CONCLUIDA');
});

test('a paid OVERDUE charge is paid its amount of the day (with the discount)', async () => {
  const made = await server.client.post(
    '/api/v1/charge',
    {
      type: 'OVERDUE',
      correlationID: 'paid-2',
      value: 45000,
      daysForDueDate: 10,
      discount: { modality: 'FIXED_VALUE_UNTIL_SPECIFIED_DATE', discountFixedDate: [{ daysActive: 5, value: 2000 }] },
      customer: { name: 'Rafael', taxID: '39053344705' },
    },
    { auth: acme.appID },
  );
  assert.is(made.status, 200, made.text);
  const paid = await server.client.post('/api/v1/sandbox/pay', { brCode: made.body.brCode, payer });
  assert.is(paid.status, 200, paid.text);
  const cobv = await server.client.get(`/pix/v2/cobv/${made.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(cobv.body.status, 'CONCLUIDA');
  assert.is(cobv.body.pix[0].valor, '430.00');
});

test.run();
