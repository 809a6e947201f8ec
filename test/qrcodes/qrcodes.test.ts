// Static QR codes: a real static BR Code (key, amount, txid, CRC), lookups by id,
// correlationID or identifier, list, delete, key rules and tenancy.
import { test } from 'uvu';
import { postgresOnly } from '../support/skip';
import * as assert from 'uvu/assert';
import { findDefaultKey, insertPixKey } from '../../src/keys/keys.repository';
import { parseBrCode } from '../../src/lib/brcode';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;
let other: TestCompany;
let acmeKey: string;
let otherKey: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client, { name: 'Café São Jorge Ltda' });
  other = await createCompany(server.client);
  acmeKey = (await findDefaultKey(server.database.db, acme.companyId))!.key;
  otherKey = (await findDefaultKey(server.database.db, other.companyId))!.key;
});
test.after(async () => server.close());

const post = (body: unknown, company = acme) =>
  server.client.post('/api/v1/qrcode-static', body, { auth: company.appID });
const get = (id: string, company = acme) =>
  server.client.get(`/api/v1/qrcode-static/${encodeURIComponent(id)}`, { auth: company.appID });
const del = (id: string, company = acme) =>
  server.client.delete(`/api/v1/qrcode-static/${encodeURIComponent(id)}`, { auth: company.appID });

function decode(brCode: string) {
  const parsed = parseBrCode(brCode);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
  return parsed.value;
}

test('create: a static BR Code with key, amount, txid, merchant, description and a valid CRC', async () => {
  const res = await post({
    name: 'Balcao loja Paulista',
    correlationID: 'qr-balcao-paulista',
    value: 2500,
    comment: 'Café expresso',
    pixKey: acmeKey,
  });
  assert.is(res.status, 200, res.text);
  const qr = res.body.pixQrCode;
  const publicUrl = server.services.config.publicUrl;
  assert.match(qr.id, /^qr_[A-Za-z0-9]{24}$/);
  assert.match(qr.identifier, /^[A-Za-z0-9]{25}$/);
  assert.match(qr.paymentLinkID, UUID);
  assert.match(qr.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(qr, {
    id: qr.id,
    name: 'Balcao loja Paulista',
    value: 2500,
    comment: 'Café expresso',
    correlationID: 'qr-balcao-paulista',
    identifier: qr.identifier,
    paymentLinkID: qr.paymentLinkID,
    paymentLinkUrl: `${publicUrl}/pay/${qr.paymentLinkID}`,
    qrCodeImage: `${publicUrl}/openpix/charge/brcode/image/${qr.paymentLinkID}.png`,
    brCode: qr.brCode,
    pixKey: acmeKey,
    createdAt: qr.createdAt,
    updatedAt: qr.createdAt,
  });
  assert.is(res.body.correlationID, 'qr-balcao-paulista');
  assert.is(res.body.brCode, qr.brCode);

  const code = decode(qr.brCode);
  assert.is(code.kind, 'static');
  assert.is(code.pixKey, acmeKey);
  assert.is(code.amount, 2500);
  assert.is(code.txid, qr.identifier);
  assert.is(code.merchantName, 'Cafe Sao Jorge Ltda');
  assert.is(code.merchantCity, 'SAO PAULO');
  assert.is(code.description, 'Cafe expresso');
  assert.ok(qr.brCode.startsWith('000201'));
  assert.ok(qr.brCode.includes(`62290525${qr.identifier}6304`));
  // The CRC covers the whole payload: one changed character breaks it.
  const tampered = qr.brCode.replace('540525.00', '540526.00');
  assert.is.not(tampered, qr.brCode);
  assert.equal(parseBrCode(tampered), { ok: false, reason: 'CRC does not match' });
});

test('without value, key or correlationID: open amount, the default key, a generated correlationID', async () => {
  const res = await post({ name: 'Doacoes' });
  assert.is(res.status, 200, res.text);
  const qr = res.body.pixQrCode;
  assert.match(qr.correlationID, UUID);
  assert.is(res.body.correlationID, qr.correlationID);
  assert.is(qr.pixKey, acmeKey);
  assert.not.ok('value' in qr);
  assert.not.ok('comment' in qr);
  const code = decode(qr.brCode);
  assert.is(code.pixKey, acmeKey);
  assert.is(code.amount, undefined);
  assert.is(code.txid, qr.identifier);
  assert.is(code.description, undefined);
  assert.not.ok(qr.brCode.includes('530398654'));
});

test("pixKey: any key of the company; another company's or an unknown key is refused", async () => {
  const email = `caixa+${Date.now()}@cafesaojorge.com.br`;
  const account = (
    await server.database.db
      .selectFrom('pix_keys')
      .select('account_id')
      .where('key', '=', acmeKey)
      .executeTakeFirstOrThrow()
  ).account_id;
  await insertPixKey(server.database.db, {
    key: email,
    company_id: acme.companyId,
    account_id: account,
    type: 'EMAIL',
    is_default: false,
    created_at: new Date(),
  });
  const res = await post({ name: 'Caixa 2', pixKey: email, value: 1 });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.pixQrCode.pixKey, email);
  assert.is(decode(res.body.brCode).pixKey, email);
  assert.is(decode(res.body.brCode).amount, 1);
  for (const pixKey of [otherKey, 'nobody@example.com']) {
    const refused = await post({ name: 'x', pixKey });
    assert.is(refused.status, 400, refused.text);
    assert.equal(refused.body, {
      error: 'Pix key not found for this company',
      details: [{ field: 'body.pixKey', message: 'is not a key of this company' }],
    });
  }
});

test('input rules: 400 naming the field', async () => {
  for (const [body, field] of [
    [{}, 'body.name'],
    [{ name: '  ' }, 'body.name'],
    [{ name: 'x', value: 0 }, 'body.value'],
    [{ name: 'x', value: 12.5 }, 'body.value'],
    [{ name: 'x', value: 1_000_000_000_000 }, 'body.value'],
    [{ name: 'x', correlationID: ' ' }, 'body.correlationID'],
    [{ name: 'x', comment: 'c'.repeat(141) }, 'body.comment'],
    [{ name: 'x', identifier: 'ABC' }, 'body.identifier'],
  ] as const) {
    const res = await post(body);
    assert.is(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(
      res.body.details.map((d: { field: string }) => d.field),
      [field],
      res.text,
    );
  }
  // The largest amount a BR Code carries is accepted.
  const max = await post({ name: 'Maximo', value: 999_999_999_999 });
  assert.is(max.status, 200, max.text);
  assert.is(decode(max.body.brCode).amount, 999_999_999_999);
});

test('a company without a default key must send pixKey', async () => {
  const bare = await createCompany(server.client);
  await server.database.db.deleteFrom('pix_keys').where('company_id', '=', bare.companyId).execute();
  const res = await post({ name: 'x' }, bare);
  assert.is(res.status, 400, res.text);
  assert.is(res.body.error, 'The company has no default Pix key: send pixKey');
});

test('a company name without printable letters falls back to its tax id as merchant name', async () => {
  const tokyo = await createCompany(server.client, { name: '東京商店' });
  const company = await server.client.get('/api/v1/company', { auth: tokyo.appID });
  const res = await post({ name: 'x', value: 100 }, tokyo);
  assert.is(res.status, 200, res.text);
  assert.is(decode(res.body.brCode).merchantName, company.body.company.taxID);
});

test('get by id, correlationID (URI-encoded, any characters) or identifier', async () => {
  const correlationID = 'loja/50%#ação';
  const created = await post({ name: 'Especial', correlationID, value: 990 });
  assert.is(created.status, 200, created.text);
  const qr = created.body.pixQrCode;
  for (const id of [qr.id, correlationID, qr.identifier]) {
    const res = await get(id);
    assert.is(res.status, 200, `${id}: ${res.text}`);
    assert.equal(res.body, { pixQrCode: qr });
  }
  const missing = await get('nope');
  assert.is(missing.status, 404);
  assert.equal(missing.body, { error: 'QR code not found' });
});

test('a duplicate correlationID is a 400; after delete it can be used again', async () => {
  const dup = await post({ name: 'Outro', correlationID: 'qr-balcao-paulista' });
  assert.is(dup.status, 400);
  assert.equal(dup.body, {
    error: 'QR code with this correlationID already exists',
    details: [{ field: 'body.correlationID', message: 'is already used by another QR code' }],
  });
});

test('list: newest first with pageInfo', async () => {
  const all = await server.client.get('/api/v1/qrcode-static?limit=100', { auth: acme.appID });
  assert.is(all.status, 200, all.text);
  const total = all.body.pageInfo.totalCount;
  assert.is(total, 5);
  assert.equal(
    all.body.pixQrCodes.map((q: { name: string }) => q.name),
    ['Especial', 'Maximo', 'Caixa 2', 'Doacoes', 'Balcao loja Paulista'],
  );
  const page = await server.client.get('/api/v1/qrcode-static?skip=2&limit=2', { auth: acme.appID });
  assert.equal(page.body.pixQrCodes, all.body.pixQrCodes.slice(2, 4));
  assert.equal(page.body.pageInfo, { skip: 2, limit: 2, totalCount: total, hasPreviousPage: true, hasNextPage: true });
  const last = await server.client.get('/api/v1/qrcode-static?skip=4&limit=2', { auth: acme.appID });
  assert.equal(last.body.pageInfo, { skip: 4, limit: 2, totalCount: total, hasPreviousPage: true, hasNextPage: false });
});

test('another company never sees nor deletes these codes', async () => {
  for (const id of ['qr-balcao-paulista']) {
    assert.equal((await get(id, other)).body, { error: 'QR code not found' });
    assert.is((await del(id, other)).status, 404);
  }
  const list = await server.client.get('/api/v1/qrcode-static', { auth: other.appID });
  assert.equal(list.body.pixQrCodes, []);
  assert.is((await get('qr-balcao-paulista')).status, 200);
});

test('delete by each id form: the code is no longer found, listed or deletable', async () => {
  const forms = ['id', 'correlationID', 'identifier'] as const;
  for (const form of forms) {
    const created = await post({ name: `apagar ${form}`, correlationID: `apagar-${form}`, value: 100 });
    const qr = created.body.pixQrCode;
    const id = qr[form];
    const res = await del(id);
    assert.is(res.status, 200, res.text);
    assert.equal(res.body, { status: 'OK', id });
    for (const any of [qr.id, qr.correlationID, qr.identifier]) assert.is((await get(any)).status, 404);
    assert.is((await del(id)).status, 404);
    const list = await server.client.get('/api/v1/qrcode-static?limit=100', { auth: acme.appID });
    assert.not.ok(list.body.pixQrCodes.some((q: { id: string }) => q.id === qr.id));
  }
  // The correlationID of a deleted code is free again.
  const again = await post({ name: 'de novo', correlationID: 'apagar-id' });
  assert.is(again.status, 200, again.text);
});

postgresOnly(
  'concurrent creates under one correlationID and concurrent deletes: one wins, no 500 (Postgres)',
  async () => {
    const created = await Promise.all(
      Array.from({ length: 6 }, () => post({ name: 'Corrida', correlationID: 'corrida', value: 100 })),
    );
    assert.equal(created.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400]);
    const deleted = await Promise.all(Array.from({ length: 4 }, () => del('corrida')));
    assert.equal(deleted.map((r) => r.status).sort(), [200, 404, 404, 404]);
  },
);

test.run();
