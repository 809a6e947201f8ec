// The charges as an outside party sees them, checked with tools independent of our own code:
// QR images decoded by jsQR, BR Codes checked with a CRC written here (table-driven) and the
// Central Bank manual's example, payload JWS verified with node:crypto alone (RSA-PSS, SHA-256,
// salt 32) against the published JWKS, and the payment page of paymentLinkUrl.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate, constants, createHash, createPublicKey, verify } from 'node:crypto';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { startTestServer, type TestServer } from '../support/server';
import { chargesCompany, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let dynamic: any;
let overdue: any;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server, { name: 'Açaí & Pão de Queijo da Conceição Ltda' });
  const d = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'ped/1%#ção',
      value: 15990,
      comment: 'Pedido <b>#1</b> & "ção"',
      customer: { name: 'José Ação', taxID: '52998224725' },
    },
    { auth: acme.appID },
  );
  assert.is(d.status, 200, d.text);
  dynamic = d.body.charge;
  const o = await server.client.post(
    '/api/v1/charge',
    {
      correlationID: 'venc/2',
      value: 20000,
      type: 'OVERDUE',
      daysForDueDate: 3,
      fines: { value: 200 },
      interests: { value: 33 },
      customer: { name: 'Empresa Ação', taxID: '11222333000181' },
    },
    { auth: acme.appID },
  );
  assert.is(o.status, 200, o.text);
  overdue = o.body.charge;
});
test.after(async () => server.close());

// --- independent helpers -----------------------------------------------------------------

// CRC-16/CCITT-FALSE, table-driven (poly 0x1021, init 0xFFFF, no reflection, no final xor).
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let i = 0; i < 8; i++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1;
  return c & 0xffff;
});
function crc(text: string): string {
  let c = 0xffff;
  for (const b of Buffer.from(text, 'latin1')) c = ((c << 8) ^ CRC_TABLE[((c >> 8) ^ b) & 0xff]!) & 0xffff;
  return c.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(s: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < s.length;) {
    const id = s.slice(i, i + 2);
    const len = Number(s.slice(i + 2, i + 4));
    out.set(id, s.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

function decodePng(png: Buffer): { width: number; text: string | undefined } {
  const image = PNG.sync.read(png);
  return { width: image.width, text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data };
}

function pathOf(url: string): string {
  if (url.startsWith('/')) return url;
  const u = new URL(url.includes('://') ? url : `http://${url}`);
  return u.pathname + u.search;
}

// --- BR Code -------------------------------------------------------------------------------

test('CRC: the check value and the Central Bank manual example', () => {
  assert.is(crc('123456789'), '29B1');
  const manual =
    '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
  assert.is(crc(manual.slice(0, -4)), manual.slice(-4));
});

test('BR Codes: EMV fields, CRC, ASCII merchant name <= 25 and city <= 15 without accents', async () => {
  const qr = await server.client.post('/api/v1/qrcode-static', { name: 'Balcão', value: 2500 }, { auth: acme.appID });
  assert.is(qr.status, 200, qr.text);
  for (const brCode of [dynamic.brCode, overdue.brCode, qr.body.pixQrCode.brCode] as string[]) {
    assert.ok(/^[\x20-\x7E]+$/.test(brCode), brCode);
    assert.is(brCode.slice(-8, -4), '6304');
    assert.is(crc(brCode.slice(0, -4)), brCode.slice(-4));
    const f = tlv(brCode);
    assert.is(f.get('00'), '01');
    assert.is(f.get('52'), '0000');
    assert.is(f.get('53'), '986');
    assert.is(f.get('58'), 'BR');
    const name = f.get('59')!;
    const city = f.get('60')!;
    assert.ok(name.length >= 1 && name.length <= 25, name);
    assert.ok(city.length >= 1 && city.length <= 15, city);
    assert.ok(/^[A-Za-z0-9 &.,'-]+$/.test(name), name);
    assert.ok(name.startsWith('Acai & Pao de Queijo'), name);
    assert.is(tlv(f.get('26')!).get('00'), 'br.gov.bcb.pix');
  }
  const d = tlv(dynamic.brCode);
  assert.is(d.get('01'), '12');
  assert.is(d.get('54'), '159.90');
  const loc = tlv(d.get('26')!).get('25')!;
  assert.not.match(loc, /^https?:/);
  assert.match(loc, /\/qr\/v2\/[^/]+$/);
  assert.match(tlv(tlv(overdue.brCode).get('26')!).get('25')!, /\/qr\/v2\/cobv\/[^/]+$/);
  assert.is(tlv(overdue.brCode).get('54'), undefined);
  const s = tlv(qr.body.pixQrCode.brCode);
  assert.is(tlv(s.get('26')!).get('01'), acme.key);
  assert.is(s.get('54'), '25.00');
});

test('a company whose name has no Latin letters still gets charges (generic merchant name)', async () => {
  const other = await chargesCompany(server, { name: '北京烤鸭' });
  const res = await server.client.post('/api/v1/charge', { correlationID: 'cjk', value: 100 }, { auth: other.appID });
  assert.is(res.status, 200, res.text);
  const name = tlv(res.body.charge.brCode).get('59')!;
  assert.ok(name.length > 0 && /^[\x20-\x7E]+$/.test(name), name);
  const cob = await server.client.get(`/pix/v2/cob/${res.body.charge.identifier}`, { auth: other.bearer });
  assert.is(cob.status, 200, cob.text);
  assert.is(cob.body.pixCopiaECola, res.body.charge.brCode);
});

// --- QR images -----------------------------------------------------------------------------

test('QR images decode (jsQR) to exactly the BR Code: charges and a static QR code, both endpoints', async () => {
  const qr = await server.client.post('/api/v1/qrcode-static', { name: 'Caixa 2' }, { auth: acme.appID });
  assert.is(qr.status, 200, qr.text);
  const items = [
    { brCode: dynamic.brCode, link: dynamic.paymentLinkID, id: 'ped/1%#ção' },
    { brCode: overdue.brCode, link: overdue.paymentLinkID, id: overdue.globalID },
    { brCode: qr.body.pixQrCode.brCode, link: qr.body.pixQrCode.paymentLinkID, id: qr.body.pixQrCode.id },
  ];
  for (const { brCode, link, id } of items) {
    const png = await server.client.get(`/openpix/charge/brcode/image/${encodeURIComponent(link)}.png?size=600`);
    assert.is(png.status, 200, png.text);
    assert.is(png.headers.get('content-type'), 'image/png');
    assert.equal(decodePng(png.body), { width: 600, text: brCode });
    const b64 = await server.client.get(`/api/image/qrcode/base64/${encodeURIComponent(id)}`, { auth: acme.appID });
    assert.is(b64.status, 200, b64.text);
    const [prefix, data] = (b64.body.imageBase64 as string).split(',');
    assert.is(prefix, 'data:image/png;base64');
    assert.equal(decodePng(Buffer.from(data!, 'base64')), { width: 1024, text: brCode }); // default size
  }
  const path = `/openpix/charge/brcode/image/${dynamic.paymentLinkID}.png`;
  assert.is(decodePng((await server.client.get(`${path}?size=4096`)).body).width, 4096);
  for (const size of ['599', '4097', '0', '-600', '1000.5', 'big', '']) {
    for (const url of [`${path}?size=${size}`, `/api/image/qrcode/base64/${dynamic.paymentLinkID}?size=${size}`]) {
      const bad = await server.client.get(url, { auth: acme.appID });
      assert.is(bad.status, 400, `${url}: ${bad.text}`);
      assert.type(bad.body.error, 'string');
    }
  }
});

// --- payload JWS ---------------------------------------------------------------------------

async function verifyIndependently(location: string): Promise<{ header: Record<string, string>; payload: any }> {
  const res = await server.client.get(pathOf(location));
  assert.is(res.status, 200, res.text);
  assert.is(res.headers.get('content-type'), 'application/jose');
  const jws = typeof res.body === 'string' ? res.body : res.text;
  const parts = jws.split('.');
  assert.is(parts.length, 3);
  const [h, p, s] = parts as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
  assert.equal(Object.keys(header).sort(), ['alg', 'jku', 'kid', 'x5t']);
  assert.is(header.alg, 'PS256');
  assert.is(new URL(header.jku).pathname, '/.well-known/jwks.json');
  const jwks = await server.client.get(new URL(header.jku).pathname);
  assert.is(jwks.status, 200);
  const jwk = jwks.body.keys.find((k: { kid: string }) => k.kid === header.kid);
  assert.ok(jwk, 'the kid is published');
  assert.is(jwk.d, undefined);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const valid = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
    Buffer.from(s, 'base64url'),
  );
  assert.ok(valid, 'RSA-PSS SHA-256 signature');
  // a changed payload no longer verifies
  const forged = Buffer.from(JSON.stringify({ forged: true })).toString('base64url');
  assert.not.ok(
    verify(
      'sha256',
      Buffer.from(`${h}.${forged}`),
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
      Buffer.from(s, 'base64url'),
    ),
  );
  assert.ok(Array.isArray(jwk.x5c) && jwk.x5c.length >= 1);
  const der = Buffer.from(jwk.x5c[0], 'base64');
  assert.is(header.x5t, createHash('sha1').update(der).digest('base64url'));
  assert.ok(new X509Certificate(der).publicKey.equals(key), 'the certificate holds the key');
  return { header, payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) };
}

test('cob payload: JWS verified with node:crypto, CobPayload fields of the standard', async () => {
  const cob = await server.client.get(`/pix/v2/cob/${dynamic.identifier}`, { auth: acme.bearer });
  assert.is(cob.status, 200, cob.text);
  const { payload } = await verifyIndependently(cob.body.location);
  for (const f of ['txid', 'calendario', 'revisao', 'status', 'valor', 'chave']) assert.ok(f in payload, f);
  assert.is(payload.txid, dynamic.identifier);
  assert.is(payload.status, 'ATIVA');
  assert.is(payload.valor.original, '159.90');
  assert.is(payload.chave, acme.key);
  assert.is(payload.calendario.criacao, dynamic.createdAt);
  assert.is(payload.calendario.expiracao, 86400);
  assert.ok(!Number.isNaN(Date.parse(payload.calendario.apresentacao)));
  assert.equal(payload.devedor, { cpf: '52998224725', nome: 'José Ação' });
  assert.is(payload.loc, undefined);
  assert.is(payload.pixCopiaECola, undefined);
});

test('cobv payload with codMun and DPP: valor.final of that day, clear 400s', async () => {
  const cobv = await server.client.get(`/pix/v2/cobv/${overdue.identifier}`, { auth: acme.bearer });
  assert.is(cobv.status, 200, cobv.text);
  const due = cobv.body.calendario.dataDeVencimento as string;
  // two days after the due date (moved to the next business day when it falls on a holiday or weekend)
  const late = new Date(Date.parse(due) + 9 * 86400000).toISOString().slice(0, 10);
  const { payload } = await verifyIndependently(`${cobv.body.location}?codMun=3550308&DPP=${late}`);
  for (const f of ['txid', 'calendario', 'revisao', 'status', 'valor', 'chave', 'devedor', 'recebedor'])
    assert.ok(f in payload, f);
  assert.is(payload.calendario.dataDeVencimento, due);
  assert.is(payload.calendario.validadeAposVencimento, 30);
  assert.is(payload.valor.original, '200.00');
  assert.is(payload.valor.multa, '4.00');
  const lateDays = Math.round(Number(payload.valor.juros) / 0.66);
  assert.ok(lateDays >= 1 && lateDays <= 9, payload.valor.juros);
  assert.is(payload.valor.final, (200 + 4 + Number(payload.valor.juros)).toFixed(2));
  for (const f of ['cnpj', 'nome', 'logradouro', 'cidade', 'uf', 'cep']) assert.ok(f in payload.recebedor, f);

  const base = pathOf(cobv.body.location);
  for (const q of [
    'DPP=2000-01-01',
    `DPP=${new Date(Date.parse(due) + 31 * 86400000).toISOString().slice(0, 10)}`,
    'DPP=2026-02-30',
    'DPP=soon',
    'codMun=1234567',
    'codMun=355030',
  ]) {
    const res = await server.client.get(`${base}?${q}`);
    assert.is(res.status, 400, `${q}: ${res.text}`);
    assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.is(res.body.type, 'https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida');
  }
});

// --- the payment page ----------------------------------------------------------------------

test('paymentLinkUrl is a working payment page: QR image, value, description, BR Code', async () => {
  const page = await server.client.get(pathOf(dynamic.paymentLinkUrl));
  assert.is(page.status, 200, page.text);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  const html = page.text;
  assert.ok(html.includes('R$ 159,90'), html);
  assert.ok(html.includes('Pedido &lt;b&gt;#1&lt;/b&gt; &amp; &quot;ção&quot;'), 'the description is escaped');
  assert.not.ok(html.includes('<b>#1</b>'));
  assert.ok(html.includes(dynamic.brCode.replace(/&/g, '&amp;')), 'copy and paste BR Code');
  const img = /<img [^>]*src="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const png = await server.client.get(pathOf(img));
  assert.is(png.status, 200);
  assert.is(decodePng(png.body).text, dynamic.brCode);

  const due = await server.client.get(pathOf(overdue.paymentLinkUrl));
  assert.is(due.status, 200);
  assert.ok(due.text.includes('R$ 200,00'));

  const qr = await server.client.post('/api/v1/qrcode-static', { name: 'Gorjeta' }, { auth: acme.appID });
  const link = qr.body.pixQrCode.paymentLinkID as string;
  const st = await server.client.get(`/pay/${encodeURIComponent(link)}`);
  assert.is(st.status, 200, st.text);
  assert.ok(st.text.includes('Valor à sua escolha'));

  const missing = await server.client.get('/pay/no-such-link');
  assert.is(missing.status, 404);
  assert.is(missing.body.error, 'Payment link not found');
});

test('the payment page of a paid charge says so and shows no QR code', async () => {
  const c = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'paid-page', value: 700 },
    { auth: acme.appID },
  );
  const pay = await server.client.post('/api/v1/sandbox/pay', {
    brCode: c.body.charge.brCode,
    payer: { name: 'Ana', taxID: '52998224725' },
  });
  assert.is(pay.status, 200, pay.text);
  const page = await server.client.get(pathOf(c.body.charge.paymentLinkUrl));
  assert.is(page.status, 200);
  assert.ok(page.text.includes('>Pago<'));
  assert.not.ok(page.text.includes('<img'));
  assert.not.ok(page.text.includes(c.body.charge.brCode));
});

// --- bounds that once answered 500 or broke the standard ------------------------------------

test('charge create: amounts and dates beyond what the standard can carry are clear 400s', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ value: 1_000_000_000_000 }, 'body.value'],
    [{ value: 100, expiresIn: 2_147_483_648 }, 'body.expiresIn'],
    [{ value: 100, expiresDate: '9999-01-01T00:00:00Z' }, 'body.expiresDate'],
    [{ value: 100, type: 'OVERDUE', daysForDueDate: 100_000_000 }, 'body.daysForDueDate'],
    [{ value: 100, type: 'OVERDUE', daysForDueDate: 1, daysAfterDueDate: 100_000_000 }, 'body.daysAfterDueDate'],
    [{ value: 100, type: 'OVERDUE', dueDate: '9999-12-30T00:00:00Z' }, 'body.dueDate'],
  ];
  let n = 0;
  for (const [body, field] of cases) {
    const res = await server.client.post(
      '/api/v1/charge',
      { correlationID: `bound-${n++}`, ...body },
      { auth: acme.appID },
    );
    assert.is(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.type(res.body.error, 'string');
    assert.ok(
      res.body.details?.some((d: { field: string }) => d.field === field),
      `${field}: ${res.text}`,
    );
  }
  const max = await server.client.post(
    '/api/v1/charge',
    { correlationID: 'bound-max', value: 999_999_999_999 },
    { auth: acme.appID },
  );
  assert.is(max.status, 200, max.text);
  assert.is(tlv(max.body.charge.brCode).get('54'), '9999999999.99');
});

test.run();
