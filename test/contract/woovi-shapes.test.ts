// Our platform answers decode the way Woovi's public reference types them (the facts its
// clients rely on, in ./woovi/facts.ts): charge create/get/list, refund create/list (of a
// charge and of any received Pix),
// customer create/get/list, accounts; lists carry pageInfo {skip, limit, hasPreviousPage,
// hasNextPage}. The paths a Woovi client calls with a trailing slash answer too.
import { randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openApiAjv } from '../support/ajv';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';
import {
  wooviAccount,
  wooviCharge,
  wooviCustomer,
  wooviPageInfo,
  wooviPixTransactionRefund,
  wooviRefund,
} from './woovi/facts';

const ajv = openApiAjv();
let server: TestServer;
let company: TestCompany;

test.before(async () => {
  server = await startTestServer();
  company = await createCompany(server.client);
});
test.after(() => server.close());

function decodes(what: string, schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 400)}`);
}

const auth = () => ({ auth: company.appID });

test('charge create, get and list decode as Woovi Charge; the list has its pageInfo', async () => {
  const correlationID = `woovi-${randomUUID()}`;
  const created = await server.client.post(
    '/api/v1/charge',
    {
      correlationID,
      value: 1990,
      comment: 'pedido',
      customer: { name: 'Dan', taxID: '12345678909', email: 'dan@example.com' },
      additionalInfo: [{ key: 'pedido', value: '42' }],
    },
    auth(),
  );
  assert.is(created.status, 200, created.text);
  decodes('POST /api/v1/charge .charge', wooviCharge, created.body.charge);
  assert.type(created.body.brCode, 'string');
  const got = await server.client.get(`/api/v1/charge/${correlationID}`, auth());
  assert.is(got.status, 200, got.text);
  decodes('GET /api/v1/charge/{id} .charge', wooviCharge, got.body.charge);
  const list = await server.client.get('/api/v1/charge', auth());
  assert.is(list.status, 200, list.text);
  for (const c of list.body.charges) decodes('GET /api/v1/charge .charges[]', wooviCharge, c);
  decodes('GET /api/v1/charge .pageInfo', wooviPageInfo, list.body.pageInfo);
});

test('refund of a paid charge decodes as Woovi ChargeRefund', async () => {
  const correlationID = `woovi-${randomUUID()}`;
  const created = await server.client.post('/api/v1/charge', { correlationID, value: 5000 }, auth());
  const paid = await server.client.post('/api/v1/sandbox/pay', {
    brCode: created.body.charge.brCode,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(paid.status, 200, paid.text);
  const refund = await server.client.post(
    `/api/v1/charge/${correlationID}/refund`,
    { correlationID: `r-${randomUUID()}`, value: 1000, comment: 'troca' },
    auth(),
  );
  assert.is(refund.status, 200, refund.text);
  decodes('POST /api/v1/charge/{id}/refund .refund', wooviRefund, refund.body.refund);
  const list = await server.client.get(`/api/v1/charge/${correlationID}/refund`, auth());
  assert.is(list.status, 200, list.text);
  for (const r of list.body.refunds) decodes('GET /api/v1/charge/{id}/refund .refunds[]', wooviRefund, r);
});

test('refund of a received Pix: create, get and list decode as Woovi PixTransactionRefund', async () => {
  const pixIn = await server.client.post('/api/v1/sandbox/pix-in', {
    pixKey: company.pixKey,
    value: 3000,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  assert.is(pixIn.status, 200, pixIn.text);
  const correlationID = `r-${randomUUID()}`;
  const created = await server.client.post(
    '/api/v1/refund',
    { transactionEndToEndId: pixIn.body.endToEndId, correlationID, value: 1000, comment: 'Comentario do reembolso' },
    auth(),
  );
  assert.is(created.status, 200, created.text);
  decodes('POST /api/v1/refund .refund', wooviPixTransactionRefund, created.body.refund);
  const got = await server.client.get(`/api/v1/refund/${correlationID}`, auth());
  assert.is(got.status, 200, got.text);
  decodes('GET /api/v1/refund/{id} .pixTransactionRefund', wooviPixTransactionRefund, got.body.pixTransactionRefund);
  const list = await server.client.get('/api/v1/refund', auth());
  assert.is(list.status, 200, list.text);
  assert.ok(list.body.refunds.length > 0);
  for (const r of list.body.refunds) decodes('GET /api/v1/refund .refunds[]', wooviPixTransactionRefund, r);
  decodes('GET /api/v1/refund .pageInfo', wooviPageInfo, list.body.pageInfo);
});

test('customer create, get and list decode as Woovi Customer (taxID is {taxID, type})', async () => {
  const created = await server.client.post(
    '/api/v1/customer',
    { name: 'Ana', taxID: '11144477735', email: 'ana@example.com', correlationID: `c-${randomUUID()}` },
    auth(),
  );
  assert.is(created.status, 200, created.text);
  decodes('POST /api/v1/customer .customer', wooviCustomer, created.body.customer);
  assert.is(created.body.customer.taxID.taxID, '11144477735');
  const list = await server.client.get('/api/v1/customer', auth());
  assert.is(list.status, 200, list.text);
  for (const c of list.body.customers) decodes('GET /api/v1/customer .customers[]', wooviCustomer, c);
  decodes('GET /api/v1/customer .pageInfo', wooviPageInfo, list.body.pageInfo);
});

test('accounts decode as Woovi CompanyBankAccount, also at the trailing-slash path Woovi documents', async () => {
  for (const path of ['/api/v1/account', '/api/v1/account/']) {
    const list = await server.client.get(path, auth());
    assert.is(list.status, 200, `${path}: ${list.text}`);
    for (const a of list.body.accounts) decodes(`GET ${path} .accounts[]`, wooviAccount, a);
  }
  const one = await server.client.get(`/api/v1/account/${company.accountId}`, auth());
  assert.is(one.status, 200, one.text);
  decodes('GET /api/v1/account/{id} .account', wooviAccount, one.body.account);
});

test.run();
