// Platform charges (/api/v1/charge) of type DYNAMIC: create with every option, read by id,
// globalID or correlationID (URI-encoded), list with filters, delete, change expiry; the same
// record as the Pix API's cob; CHARGE_CREATED recorded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chargeIdOfGlobalId } from '../../src/charges/charge-model';
import { listEventsOfCompany } from '../../src/events/events.repository';
import { startTestServer, type TestServer } from '../support/server';
import { advanceClock, chargesCompany, decodeBrCode, fetchPayload, type ChargesCompany } from './support';

let server: TestServer;
let acme: ChargesCompany;
let other: ChargesCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await chargesCompany(server, { name: 'Aurora Moda Ltda' });
  other = await chargesCompany(server);
});
test.after(async () => server.close());

const create = (body: Record<string, unknown>, company = acme, query = '') =>
  server.client.post(`/api/v1/charge${query}`, body, { auth: company.appID });
const get = (id: string, company = acme) =>
  server.client.get(`/api/v1/charge/${encodeURIComponent(id)}`, { auth: company.appID });

const dynamic = {
  correlationID: 'pedido-2026-000184',
  value: 15990,
  comment: 'Pedido #184 - Loja Aurora',
  expiresIn: 3600,
  customer: {
    name: 'Mariana Alves Costa',
    taxID: '529.982.247-25',
    email: 'mariana.costa@email.com.br',
    phone: '+5511987654321',
  },
  additionalInfo: [
    { key: 'Pedido', value: '184' },
    { key: 'Loja', value: 'Aurora Moda' },
  ],
};

test('create DYNAMIC: the charge with what a client needs to get paid', async () => {
  const res = await create(dynamic);
  assert.is(res.status, 200, res.text);
  const { charge, correlationID, brCode } = res.body;
  assert.is(correlationID, 'pedido-2026-000184');
  assert.is(brCode, charge.brCode);
  assert.is(charge.status, 'ACTIVE');
  assert.is(charge.type, 'DYNAMIC');
  assert.is(charge.value, 15990);
  assert.is(charge.comment, 'Pedido #184 - Loja Aurora');
  assert.match(charge.identifier, /^[A-Za-z0-9]{32}$/);
  assert.is(charge.transactionID, charge.identifier);
  assert.is(charge.pixKey, acme.key);
  assert.is(charge.expiresIn, 3600);
  assert.is(Date.parse(charge.expiresDate) - Date.parse(charge.createdAt), 3600_000);
  assert.is(charge.paymentLinkUrl, `http://localhost:${new URL(server.url).port}/pay/${charge.paymentLinkID}`);
  assert.is(
    charge.qrCodeImage,
    `http://localhost:${new URL(server.url).port}/openpix/charge/brcode/image/${charge.paymentLinkID}.png`,
  );
  assert.is(charge.discount, 0);
  assert.is(charge.valueWithDiscount, 15990);
  assert.equal(charge.additionalInfo, dynamic.additionalInfo);
  assert.is(charge.customer.name, 'Mariana Alves Costa');
  assert.equal(charge.customer.taxID, { taxID: '52998224725', type: 'BR:CPF' });
  assert.is(charge.customer.email, 'mariana.costa@email.com.br');
  const code = decodeBrCode(brCode);
  assert.is(code.amount, 15990);
  assert.is(code.merchantName, 'Aurora Moda Ltda');
  assert.match(code.locationUrl!, /^localhost:\d+\/qr\/v2\/[0-9a-f-]{36}$/);

  // the same record through the Pix API: a cob with the customer as devedor
  const cob = await server.client.get(`/pix/v2/cob/${charge.identifier}`, { auth: acme.bearer });
  assert.is(cob.status, 200, cob.text);
  assert.equal(cob.body.devedor, { cpf: '52998224725', nome: 'Mariana Alves Costa' });
  assert.equal(cob.body.valor, { original: '159.90', modalidadeAlteracao: 0 });
  assert.is(cob.body.solicitacaoPagador, 'Pedido #184 - Loja Aurora');
  assert.equal(cob.body.infoAdicionais, [
    { nome: 'Pedido', valor: '184' },
    { nome: 'Loja', valor: 'Aurora Moda' },
  ]);
  assert.is(cob.body.pixCopiaECola, brCode);
  assert.is(cob.body.calendario.expiracao, 3600);
  const payload = await fetchPayload(server, code.locationUrl!);
  assert.is(payload.payload.txid, charge.identifier);
  assert.is(payload.payload.valor.original, '159.90');

  const events = await listEventsOfCompany(server.database.db, acme.companyId, 'OPENPIX:CHARGE_CREATED');
  const event = events.find((e) => (e.payload as any).charge.correlationID === 'pedido-2026-000184');
  assert.ok(event, 'CHARGE_CREATED recorded');
  assert.is((event!.payload as any).charge.identifier, charge.identifier);
  assert.is((event!.payload as any).company.id, acme.companyId);
});

test('duplicate correlationID: 400, or the existing charge with return_existing=true', async () => {
  const dup = await create(dynamic);
  assert.is(dup.status, 400);
  assert.is(dup.body.error, 'Charge with this correlationID already exists');
  const first = await get('pedido-2026-000184');
  const again = await create({ ...dynamic, value: 1 }, acme, '?return_existing=true');
  assert.is(again.status, 200, again.text);
  assert.equal(again.body.charge, first.body.charge);
  // another company may use the same correlationID
  assert.is((await create(dynamic, other)).status, 200);
});

test('read by id, globalID, correlationID (URI-encoded %, #, /, non-ASCII) or txid', async () => {
  const ids = ['pedido/2026#184%ç', 'cobrança-ü-ã', 'a b+c'];
  for (const correlationID of ids) {
    const made = await create({ correlationID, value: 500 });
    assert.is(made.status, 200, made.text);
    const byCorrelation = await get(correlationID);
    assert.is(byCorrelation.status, 200, `${correlationID}: ${byCorrelation.text}`);
    assert.is(byCorrelation.body.charge.correlationID, correlationID);
    for (const id of [made.body.charge.globalID, made.body.charge.identifier]) {
      const res = await get(id);
      assert.is(res.status, 200, id);
      assert.is(res.body.charge.correlationID, correlationID);
    }
    assert.is((await get(correlationID, other)).status, 404);
  }
  const missing = await get('no-such-charge');
  assert.is(missing.status, 404);
  assert.is(missing.body.error, 'Charge not found');
});

test('a name several charges answer to reads as the id first, then the correlationID, then the txid', async () => {
  const first = (await create({ correlationID: 'precedence-1', value: 100 })).body.charge;
  const id = chargeIdOfGlobalId(first.globalID)!;
  // Other charges take the first one's id, then its txid, as their correlationID.
  const byId = (await create({ correlationID: id, value: 200 })).body.charge;
  const byTxid = (await create({ correlationID: first.transactionID, value: 300 })).body.charge;
  assert.is(byId.correlationID, id);
  assert.is((await get(id)).body.charge.correlationID, 'precedence-1');
  assert.is((await get(first.globalID)).body.charge.correlationID, 'precedence-1');
  assert.is((await get(first.transactionID)).body.charge.transactionID, byTxid.transactionID);
  // The names of one company's charges name none of another's.
  assert.is((await get(id, other)).status, 404);
  assert.is((await get(first.transactionID, other)).status, 404);
});

test('expiresIn below 5 minutes, expiresDate, and OVERDUE-only fields are refused on DYNAMIC', async () => {
  const short = await create({ correlationID: 'short', value: 100, expiresIn: 299 });
  assert.is(short.status, 400);
  assert.equal(short.body.details[0].field, 'body.expiresIn');
  const date = new Date(Date.now() + 2 * 3600_000).toISOString();
  const byDate = await create({ correlationID: 'by-date', value: 100, expiresDate: date });
  assert.is(byDate.status, 200, byDate.text);
  // The instant asked for, to the millisecond (expiresIn is its whole seconds from creation).
  assert.is(byDate.body.charge.expiresDate, date);
  const read = await server.client.get(`/api/v1/charge/${byDate.body.charge.identifier}`, { auth: acme.appID });
  assert.is(read.body.charge.expiresDate, date);
  const soon = await create({
    correlationID: 'soon',
    value: 100,
    expiresDate: new Date(Date.now() + 60_000).toISOString(),
  });
  assert.is(soon.status, 400);
  for (const field of ['daysForDueDate', 'interests', 'fines', 'discount']) {
    const value =
      field === 'daysForDueDate'
        ? 3
        : field === 'discount'
          ? { modality: 'VALUE_PER_RUNNING_DAY_ADVANCE', value: 10 }
          : { value: 100 };
    const res = await create({ correlationID: `dyn-${field}`, value: 100, [field]: value });
    assert.is(res.status, 400, field);
    assert.is(res.body.details[0].field, `body.${field}`);
  }
  const defaults = await create({ correlationID: 'default-expiry', value: 100 });
  assert.is(defaults.body.charge.expiresIn, 86400);
});

test('customer: name+taxID, name+email or name+phone; otherwise a 400 naming the missing field', async () => {
  const byEmail = await create({
    correlationID: 'c-email',
    value: 100,
    customer: { name: 'Beatriz Nogueira', email: 'beatriz.nogueira@outlook.com' },
  });
  assert.is(byEmail.status, 200, byEmail.text);
  assert.is(byEmail.body.charge.customer.email, 'beatriz.nogueira@outlook.com');
  const cob = await server.client.get(`/pix/v2/cob/${byEmail.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(cob.body.devedor, undefined);
  const byPhone = await create({
    correlationID: 'c-phone',
    value: 100,
    customer: { name: 'Joao Pedro Martins', phone: '+5531991234567' },
  });
  assert.is(byPhone.status, 200, byPhone.text);
  const noContact = await create({ correlationID: 'c-none', value: 100, customer: { name: 'Sem Contato' } });
  assert.is(noContact.status, 400);
  assert.is(noContact.body.details[0].field, 'body.customer.taxID');
  assert.match(noContact.body.error, /taxID, customer.email or customer.phone is missing/);
  const noName = await create({ correlationID: 'c-noname', value: 100, customer: { name: ' ', email: 'x@y.com' } });
  assert.is(noName.status, 400);
  assert.is(noName.body.details[0].field, 'body.customer.name');
  const badTax = await create({ correlationID: 'c-badtax', value: 100, customer: { name: 'X', taxID: '11111111111' } });
  assert.is(badTax.status, 400);
  const ensure = await create({
    correlationID: 'c-ensure',
    value: 100,
    ensureSameTaxID: true,
    customer: { name: 'X', email: 'x@y.com' },
  });
  assert.is(ensure.status, 400);
  assert.is(ensure.body.details[0].field, 'body.ensureSameTaxID');
  const ensured = await create({
    correlationID: 'c-ensured',
    value: 100,
    ensureSameTaxID: true,
    customer: { name: 'Rafael', taxID: '39053344705' },
  });
  assert.is(ensured.status, 200, ensured.text);
  const row = await server.database.db
    .selectFrom('charges')
    .selectAll()
    .where('correlation_id', '=', 'c-ensured')
    .executeTakeFirstOrThrow();
  assert.is((row.platform as any).ensureSameTaxID, true);
  assert.is((row.body as any).devedor.cpf, '39053344705');
});

test('split and subaccount: behind their features, valid keys, parts within the value', async () => {
  const plain = await chargesCompany(server, { features: [] });
  const split = {
    correlationID: 's-1',
    value: 20000,
    splits: [{ pixKey: 'financeiro@parceiro-logistica.com.br', value: 1500, splitType: 'SPLIT_PARTNER' }],
  };
  const noFeature = await create(split, plain);
  assert.is(noFeature.status, 403);
  assert.is(noFeature.body.error, 'You need feature SPLIT to access this endpoint');
  const noSub = await create({ correlationID: 's-sub', value: 100, subaccount: acme.key }, plain);
  assert.is(noSub.status, 403);
  const ok = await create(split);
  assert.is(ok.status, 200, ok.text);
  assert.equal(ok.body.charge.splits, split.splits);
  const badKey = await create({ ...split, correlationID: 's-2', splits: [{ pixKey: 'not a key', value: 10 }] });
  assert.is(badKey.status, 400);
  assert.is(badKey.body.details[0].field, 'body.splits[0].pixKey');
  const tooMuch = await create({
    ...split,
    correlationID: 's-3',
    splits: [
      { pixKey: acme.key, value: 15000 },
      { pixKey: '+5511987654321', value: 5001 },
    ],
  });
  assert.is(tooMuch.status, 400);
  assert.is(tooMuch.body.details[0].field, 'body.splits');
  const exact = await create({
    ...split,
    correlationID: 's-4',
    splits: [
      { pixKey: acme.key, value: 15000 },
      { pixKey: '+5511987654321', value: 5000 },
    ],
  });
  assert.is(exact.status, 200, exact.text);
  const sub = await create({ correlationID: 's-sub', value: 100, subaccount: acme.key });
  assert.is(sub.status, 200, sub.text);
  assert.is(sub.body.charge.subaccount, acme.key);
  const foreignSub = await create({ correlationID: 's-sub2', value: 100, subaccount: other.key });
  assert.is(foreignSub.status, 400);
});

test('list: period, status ACTIVE/COMPLETED/EXPIRED, customer, skip/limit with pageInfo; cobs of the Pix API included', async () => {
  const fresh = await chargesCompany(server);
  const start = new Date(Date.now() - 60_000).toISOString();
  for (let i = 0; i < 3; i++) {
    const res = await create(
      {
        correlationID: `l-${i}`,
        value: 100 + i,
        expiresIn: 300 * (i + 1),
        customer: { name: 'Ana', taxID: '12345678909', correlationID: 'cliente-ana' },
      },
      fresh,
    );
    assert.is(res.status, 200, res.text);
  }
  const cob = await server.client.post(
    '/pix/v2/cob',
    { calendario: { expiracao: 7200 }, valor: { original: '9.00' }, chave: fresh.key },
    { auth: fresh.bearer },
  );
  assert.is(cob.status, 201, cob.text);
  await server.client.delete('/api/v1/charge/l-2', { auth: fresh.appID });
  const list = (q: string) => server.client.get(`/api/v1/charge?start=${start}${q}`, { auth: fresh.appID });
  const all = await list('');
  assert.is(all.status, 200, all.text);
  assert.equal(
    all.body.charges.map((c: any) => c.correlationID),
    ['l-0', 'l-1', 'l-2', cob.body.txid],
  );
  assert.equal(all.body.pageInfo, { skip: 0, limit: 20, totalCount: 4, hasPreviousPage: false, hasNextPage: false });
  const page = await list('&skip=1&limit=2');
  assert.equal(
    page.body.charges.map((c: any) => c.correlationID),
    ['l-1', 'l-2'],
  );
  assert.equal(page.body.pageInfo, { skip: 1, limit: 2, totalCount: 4, hasPreviousPage: true, hasNextPage: true });
  assert.equal(
    (await list('&customer=cliente-ana')).body.charges.map((c: any) => c.correlationID),
    ['l-0', 'l-1', 'l-2'],
  );
  assert.equal((await list('&customer=nobody')).body.charges, []);
  assert.equal(
    (await list('&status=EXPIRED')).body.charges.map((c: any) => c.correlationID),
    ['l-2'],
  );
  await advanceClock(server, fresh, 301);
  assert.equal(
    (await list('&status=EXPIRED')).body.charges.map((c: any) => c.correlationID),
    ['l-0', 'l-2'],
  );
  assert.equal(
    (await list('&status=ACTIVE')).body.charges.map((c: any) => c.correlationID),
    ['l-1', cob.body.txid],
  );
  assert.equal((await list('&status=COMPLETED')).body.charges, []);
  const future = await server.client.get(`/api/v1/charge?start=${new Date(Date.now() + 86400_000).toISOString()}`, {
    auth: fresh.appID,
  });
  assert.equal(future.body.charges, []);
});

test('delete: an active charge is removed (EXPIRED, payload 410); unknown is 404', async () => {
  const made = await create({ correlationID: 'to-delete/1', value: 700 });
  const res = await server.client.delete(`/api/v1/charge/${encodeURIComponent('to-delete/1')}`, { auth: acme.appID });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { status: 'OK', id: 'to-delete/1' });
  const after = await get('to-delete/1');
  assert.is(after.body.charge.status, 'EXPIRED');
  const cob = await server.client.get(`/pix/v2/cob/${made.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(cob.body.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
  assert.is((await fetchPayload(server, decodeBrCode(made.body.brCode).locationUrl!)).status, 410);
  assert.is((await server.client.delete('/api/v1/charge/nothing-here', { auth: acme.appID })).status, 404);
  assert.is(
    (await server.client.delete(`/api/v1/charge/${encodeURIComponent('to-delete/1')}`, { auth: other.appID })).status,
    404,
  );
});

test('PATCH changes the expiry of an active charge (a new revision)', async () => {
  const made = await create({ correlationID: 'patch-me', value: 900, expiresIn: 600 });
  // An instant with milliseconds that are not the creation's: kept as asked.
  const expiresDate = new Date(Date.parse(made.body.charge.createdAt) + 2 * 86400_000 + 737).toISOString();
  const res = await server.client.patch('/api/v1/charge/patch-me', { expiresDate }, { auth: acme.appID });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.charge.expiresDate, expiresDate);
  assert.is(res.body.charge.expiresIn, 2 * 86400);
  const cob = await server.client.get(`/pix/v2/cob/${made.body.charge.identifier}`, { auth: acme.bearer });
  assert.is(cob.body.revisao, 1);
  assert.is(cob.body.calendario.expiracao, 2 * 86400);
  const past = await server.client.patch(
    '/api/v1/charge/patch-me',
    { expiresDate: '2020-01-01T00:00:00.000Z' },
    { auth: acme.appID },
  );
  assert.is(past.status, 400);
  assert.is(past.body.error, 'expiresDate must be in the future');
  await server.client.delete('/api/v1/charge/patch-me', { auth: acme.appID });
  const removed = await server.client.patch('/api/v1/charge/patch-me', { expiresDate }, { auth: acme.appID });
  assert.is(removed.status, 400);
  assert.is(removed.body.error, 'Only active charges can be changed');
  assert.is((await server.client.patch('/api/v1/charge/none', { expiresDate }, { auth: acme.appID })).status, 404);
});

test('paymentLinkID and fixedLocation: a new charge takes the link and the same QR location', async () => {
  const first = await create({
    correlationID: 'pos-1',
    value: 1000,
    expiresIn: 300,
    paymentLinkID: 'caixa-01',
    fixedLocation: true,
  });
  assert.is(first.status, 200, first.text);
  assert.is(first.body.charge.paymentLinkID, 'caixa-01');
  const busy = await create({ correlationID: 'pos-2', value: 2000, paymentLinkID: 'caixa-01', fixedLocation: true });
  assert.is(busy.status, 400);
  assert.is(busy.body.details[0].field, 'body.paymentLinkID');
  await server.client.delete('/api/v1/charge/pos-1', { auth: acme.appID });
  const second = await create({ correlationID: 'pos-2', value: 2000, paymentLinkID: 'caixa-01', fixedLocation: true });
  assert.is(second.status, 200, second.text);
  const firstUrl = decodeBrCode(first.body.brCode).locationUrl;
  assert.is(decodeBrCode(second.body.brCode).locationUrl, firstUrl);
  const payload = await fetchPayload(server, firstUrl!);
  assert.is(payload.payload.txid, second.body.charge.identifier);
  const old = await get('pos-1');
  assert.is.not(old.body.charge.paymentLinkID, 'caixa-01');
  assert.is((await create({ correlationID: 'pos-x', value: 1, paymentLinkID: 'caixa-01' }, other)).status, 400);
});

test.run();
