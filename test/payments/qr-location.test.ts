// Reading a dynamic BR Code's payload: fetched from its location, JWS verified against the
// JWKS of a jku on this server's public URL only; anything else is refused with a reason.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSigningMaterial, jwksOf, signCompactJws, type SigningMaterial } from '../../src/lib/jws';
import { isOwnLocation, readDynamicPayload } from '../../src/rail/qr-location';

let http: Server;
let base: string;
let host: string;
let material: SigningMaterial;
const pages = new Map<string, { status: number; body: string }>();
const payload = {
  txid: 'abcdefghijklmnopqrstuvwxyz0123',
  chave: '5f3c2a1e-8b7d-4c6e-9a0f-1d2e3b4c5a6f',
  status: 'ATIVA',
  revisao: 0,
  valor: { original: '48.50' },
};

test.before(async () => {
  http = createServer((req, res) => {
    const page = pages.get(req.url ?? '') ?? { status: 404, body: 'not found' };
    res.writeHead(page.status, {
      'content-type': req.url?.endsWith('.json') ? 'application/json' : 'application/jose',
    });
    res.end(page.body);
  });
  await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
  host = `127.0.0.1:${(http.address() as AddressInfo).port}`;
  base = `http://${host}`;
  material = await createSigningMaterial('127.0.0.1', new Date());
  pages.set('/jwks.json', { status: 200, body: JSON.stringify(jwksOf([material])) });
  pages.set('/qr/v2/good', { status: 200, body: await signCompactJws(payload, material, `${base}/jwks.json`) });
  pages.set('/qr/v2/editable', {
    status: 200,
    body: await signCompactJws(
      { ...payload, valor: { original: '10.00', modalidadeAlteracao: 1 } },
      material,
      `${base}/jwks.json`,
    ),
  });
  pages.set('/qr/v2/cobv', {
    status: 200,
    body: await signCompactJws(
      { ...payload, valor: { original: '100.00', final: '102.35' } },
      material,
      `${base}/jwks.json`,
    ),
  });
  pages.set('/qr/v2/evil', {
    status: 200,
    body: await signCompactJws(payload, material, 'http://evil.example/jwks.json'),
  });
  const good = pages.get('/qr/v2/good')!.body.split('.');
  const forged = Buffer.from(JSON.stringify({ ...payload, valor: { original: '0.01' } })).toString('base64url');
  pages.set('/qr/v2/tampered', { status: 200, body: `${good[0]}.${forged}.${good[2]}` });
  pages.set('/qr/v2/plain', { status: 200, body: 'hello' });
  pages.set('/qr/v2/nofields', {
    status: 200,
    body: await signCompactJws({ hello: 'world' }, material, `${base}/jwks.json`),
  });
});
test.after(() => new Promise<void>((ok) => http.close(() => ok())));

test("only locations on the public host are this server's", () => {
  assert.ok(isOwnLocation('localhost:8080/qr/v2/x', 'http://localhost:8080'));
  assert.ok(isOwnLocation('PIX.Example.com/qr/v2/x', 'https://pix.example.com'));
  assert.not.ok(isOwnLocation('localhost:8081/qr/v2/x', 'http://localhost:8080'));
  assert.not.ok(isOwnLocation('qr.padariaestrela.com.br/pix/v2/x', 'http://localhost:8080'));
});

test('a verified payload gives txid, key and amount (the final amount of a due charge; editable when allowed)', async () => {
  assert.equal(await readDynamicPayload(`${host}/qr/v2/good`, base), {
    ok: true,
    value: { txid: payload.txid, key: payload.chave, status: 'ATIVA', amountEditable: false, amount: 4_850 },
  });
  assert.equal(await readDynamicPayload(`${host}/qr/v2/editable`, base), {
    ok: true,
    value: { txid: payload.txid, key: payload.chave, status: 'ATIVA', amountEditable: true, amount: 1_000 },
  });
  const cobv = await readDynamicPayload(`${host}/qr/v2/cobv`, base);
  assert.ok(cobv.ok && cobv.value.amount === 10_235);
});

test('refusals: a jku elsewhere, a tampered payload, no JWS, no payload fields, a missing location', async () => {
  assert.equal(await readDynamicPayload(`${host}/qr/v2/evil`, base), {
    ok: false,
    reason: 'the JWS jku is not on this server, so its keys are not trusted',
  });
  assert.equal(await readDynamicPayload(`${host}/qr/v2/tampered`, base), {
    ok: false,
    reason: 'the payload JWS does not verify: signature verification failed',
  });
  assert.equal(await readDynamicPayload(`${host}/qr/v2/plain`, base), {
    ok: false,
    reason: 'the payload location did not answer a JWS',
  });
  assert.equal(await readDynamicPayload(`${host}/qr/v2/nofields`, base), {
    ok: false,
    reason: 'the payload lacks txid, chave or status',
  });
  assert.equal(await readDynamicPayload(`${host}/qr/v2/missing`, base), {
    ok: false,
    reason: `${base}/qr/v2/missing answered 404`,
  });
  // The same JWS checked with another server's public URL: its jku is not trusted there.
  assert.is((await readDynamicPayload(`${host}/qr/v2/good`, 'http://localhost:1')).ok, false);
});

test.run();
