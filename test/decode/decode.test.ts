// POST /decode/emv: any Pix BR Code into its fields, a location on this server resolved, and a
// clear 400 naming what is wrong.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildStaticBrCode } from '../../src/lib/brcode';
import { crc16CcittFalse } from '../../src/lib/crc16';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let company: TestCompany;

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
});
test.after(() => server.close());

const decode = (emv: string) => server.client.post('/api/v1/decode/emv', { emv }, { auth: company.appID });
const withCrc = (payload: string) => `${payload}6304${crc16CcittFalse(`${payload}6304`)}`;

test('a static code decodes into its fields, with no location', async () => {
  const emv = buildStaticBrCode({
    pixKey: 'loja@example.com',
    merchantName: 'Loja Boa',
    merchantCity: 'RECIFE',
    amount: 1234 as never,
    txid: 'pedido42',
    description: 'Pedido 42',
  });
  const res = await decode(emv);
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.emv.merchantAccountInformationPix, {
    gui: 'br.gov.bcb.pix',
    pixKey: 'loja@example.com',
    additionalInformation: 'Pedido 42',
  });
  assert.equal(
    [
      res.body.emv.transactionAmount,
      res.body.emv.merchantName,
      res.body.emv.additionalDataFieldTemplate.referenceLabel,
    ],
    ['12.34', 'Loja Boa', 'pedido42'],
  );
  assert.equal([res.body.cobLocation, res.body.recLocation], [null, null]);
});

test("a dynamic code of this server's charge resolves its location", async () => {
  const correlationID = `dec-${randomUUID()}`;
  const charge = await server.client.post('/api/v1/charge', { correlationID, value: 4590 }, { auth: company.appID });
  assert.is(charge.status, 200, charge.text);
  const res = await decode(charge.body.brCode);
  assert.is(res.status, 200, res.text);
  assert.is(res.body.emv.pointOfInitiationMethod, '12');
  const location = res.body.cobLocation;
  assert.equal([location.isValid, location.locationErrors], [true, []]);
  assert.equal(
    [location.payload.txid, location.payload.key, location.payload.status, location.payload.value.original],
    [charge.body.charge.transactionID, company.pixKey, 'ATIVA', '45.90'],
  );
});

test('a bad CRC, a missing GUI and a malformed amount are refused naming the problem', async () => {
  const good = buildStaticBrCode({ pixKey: 'loja@example.com', merchantName: 'Loja', merchantCity: 'RECIFE' });
  const badCrc = await decode(`${good.slice(0, -4)}0000`);
  assert.equal(badCrc.body, {
    error: 'Invalid EMV payload: CRC does not match',
    details: [{ field: 'body.emv', message: 'CRC does not match' }],
  });
  const noGui = await decode(withCrc('000201261804140br.gov.bcb.px52040000530398654041.005802BR5904Loja6006RECIFE'));
  assert.is(noGui.status, 400);
  assert.match(noGui.body.error, 'no merchant account information with GUI br.gov.bcb.pix');
  const amount = await decode(
    withCrc('00020126380014br.gov.bcb.pix0116loja@example.com520400005303986540412,05802BR5904Loja6006RECIFE'),
  );
  assert.is(amount.status, 400);
  assert.match(amount.body.error, 'amount (54)');
  const garbage = await decode('not a br code');
  assert.is(garbage.status, 400);
});

test.run();
