// QR images: a real PNG QR code of the charge's (or static QR code's) BR Code, sized 600 to
// 4096 (default 1024), open by payment link id or as a data URI for the caller's company.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { startTestServer, type TestServer } from '../support/server';
import { chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;
let charge: any;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server);
  other = await chargesCompany(server);
  const res = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'img-1', value: 15990 },
    { auth: acme.appID },
  );
  charge = res.body.charge;
});
test.after(async () => server.close());

function decodePng(png: Buffer): { width: number; height: number; text: string | undefined } {
  const image = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return { width: image.width, height: image.height, text: code?.data };
}

test('GET /openpix/charge/brcode/image/{paymentLinkID}.png is the BR Code as a PNG QR code', async () => {
  const path = new URL(charge.qrCodeImage).pathname;
  const res = await server.client.get(path);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'image/png');
  const png = decodePng(res.body);
  assert.is(png.width, 1024);
  assert.is(png.height, 1024);
  assert.is(png.text, charge.brCode);
  const small = await server.client.get(`${path}?size=600`);
  assert.is(decodePng(small.body).width, 600);
  assert.is(decodePng(small.body).text, charge.brCode);
  for (const size of ['599', '4097', 'abc']) {
    const bad = await server.client.get(`${path}?size=${size}`);
    assert.is(bad.status, 400, size);
    assert.type(bad.body.error, 'string');
  }
  const missing = await server.client.get('/openpix/charge/brcode/image/nope.png');
  assert.is(missing.status, 404);
  assert.is(missing.body.error, 'Charge not found');
});

test('a static QR code has its image at its payment link too', async () => {
  const qr = await server.client.post('/api/v1/qrcode-static', { name: 'Balcao', value: 2500 }, { auth: acme.appID });
  assert.is(qr.status, 200, qr.text);
  const code = qr.body.pixQrCode;
  const res = await server.client.get(`/openpix/charge/brcode/image/${code.paymentLinkID}.png?size=800`);
  assert.is(res.status, 200, res.text);
  const png = decodePng(res.body);
  assert.is(png.width, 800);
  assert.is(png.text, code.brCode);
  const b64 = await server.client.get(`/api/image/qrcode/base64/${code.id}`, { auth: acme.appID });
  assert.is(b64.status, 200, b64.text);
  assert.is(decodePng(Buffer.from(b64.body.imageBase64.split(',')[1], 'base64')).text, code.brCode);
  assert.is((await server.client.get(`/api/image/qrcode/base64/${code.id}`, { auth: other.appID })).status, 404);
});

test('GET /api/image/qrcode/base64/{id}: by charge id, globalID, correlationID or payment link id', async () => {
  for (const id of [charge.globalID, charge.paymentLinkID, 'img-1', charge.identifier]) {
    const res = await server.client.get(`/api/image/qrcode/base64/${encodeURIComponent(id)}?size=700`, {
      auth: acme.appID,
    });
    assert.is(res.status, 200, `${id}: ${res.text}`);
    assert.is(res.body.success, true);
    assert.match(res.body.imageBase64, /^data:image\/png;base64,/);
    const png = decodePng(Buffer.from(res.body.imageBase64.split(',')[1], 'base64'));
    assert.is(png.width, 700);
    assert.is(png.text, charge.brCode);
  }
  const foreign = await server.client.get(`/api/image/qrcode/base64/${charge.paymentLinkID}`, { auth: other.appID });
  assert.is(foreign.status, 404);
  assert.is(foreign.body.error, 'QR code not found');
  const bad = await server.client.get(`/api/image/qrcode/base64/${charge.paymentLinkID}?size=5000`, {
    auth: acme.appID,
  });
  assert.is(bad.status, 400);
});

test.run();
