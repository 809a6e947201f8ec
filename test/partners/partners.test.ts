// Partners: pre-registrations (tax ids checked, idempotent by tax id), applications for a
// pre-registered company (the first makes the affiliate; the credential works), affiliates,
// the PARTNER feature and tenancy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let partner: TestCompany;
let plain: TestCompany;

const body = {
  preRegistration: {
    name: 'Padaria Estrela Ltda',
    website: 'https://padariaestrela.com.br',
    taxID: { taxID: '19.382.956/0001-23', type: 'BR:CNPJ' },
  },
  user: {
    firstName: 'Ana',
    lastName: 'Ferreira',
    email: 'Ana.Ferreira@padariaestrela.com.br',
    phone: '+5519987651234',
    taxID: { taxID: '850.293.754-57', type: 'BR:CPF' },
  },
};
const stored = {
  preRegistration: {
    name: 'Padaria Estrela Ltda',
    website: 'https://padariaestrela.com.br',
    taxID: { taxID: '19382956000123', type: 'BR:CNPJ' },
  },
  user: {
    firstName: 'Ana',
    lastName: 'Ferreira',
    email: 'ana.ferreira@padariaestrela.com.br',
    phone: '+5519987651234',
    taxID: { taxID: '85029375457', type: 'BR:CPF' },
  },
};
const app = {
  application: { name: 'Padaria Estrela - PDV', type: 'PLUGIN', scopes: ['COMPANY_GET', 'CHARGE_GET'] },
  taxID: { taxID: '19382956000123', type: 'BR:CNPJ' },
};
const page1 = { skip: 0, limit: 20, totalCount: 1, hasPreviousPage: false, hasNextPage: false };

test.before(async () => {
  server = await startTestServer();
  partner = await createCompany(server.client, { features: ['BAAS', 'PARTNER'] });
  plain = await createCompany(server.client);
});
test.after(async () => server.close());

test('a company without the PARTNER feature cannot pre-register or create applications', async () => {
  assert.equal((await server.client.post('/api/v1/partner/company', body, { auth: plain.appID })).body, {
    error: 'You are not a partner',
  });
  const res = await server.client.post('/api/v1/partner/application', app, { auth: plain.appID });
  assert.equal([res.status, res.body], [403, { error: 'You are not a partner' }]);
});

test('pre-registration: created, then idempotent by tax id; list and get', async () => {
  const created = await server.client.post('/api/v1/partner/company', body, { auth: partner.appID });
  assert.equal([created.status, created.body], [201, stored]);
  const again = await server.client.post(
    '/api/v1/partner/company',
    { ...body, preRegistration: { ...body.preRegistration, name: 'Outro nome' } },
    { auth: partner.appID },
  );
  assert.equal([again.status, again.body], [200, stored]);
  assert.equal((await server.client.get('/api/v1/partner/company', { auth: partner.appID })).body, {
    preRegistrations: [stored],
    pageInfo: page1,
  });
  assert.equal((await server.client.get('/api/v1/partner/company/19382956000123', { auth: partner.appID })).body, {
    preRegistration: stored,
  });
  // Tenancy: another company sees nothing.
  assert.equal((await server.client.get('/api/v1/partner/company/19382956000123', { auth: plain.appID })).body, {
    error: 'Pre registration not found',
  });
  assert.equal((await server.client.get('/api/v1/partner/company', { auth: plain.appID })).body.preRegistrations, []);
});

test('pre-registration: tax ids checked with their types', async () => {
  const res = await server.client.post(
    '/api/v1/partner/company',
    {
      ...body,
      preRegistration: { ...body.preRegistration, taxID: { taxID: '19382956000124', type: 'BR:CNPJ' } },
      user: { ...body.user, taxID: { taxID: '19382956000123', type: 'BR:CNPJ' } },
    },
    { auth: partner.appID },
  );
  assert.equal(
    [res.status, res.body],
    [
      400,
      {
        error: 'Validation error',
        details: [
          { field: 'body.preRegistration.taxID.taxID', message: 'CNPJ check digits do not match' },
          { field: 'body.user.taxID.type', message: 'must be BR:CPF' },
        ],
      },
    ],
  );
  const mismatch = await server.client.post(
    '/api/v1/partner/company',
    { ...body, preRegistration: { ...body.preRegistration, taxID: { taxID: '52998224725', type: 'BR:CNPJ' } } },
    { auth: partner.appID },
  );
  assert.equal(mismatch.body.details, [
    { field: 'body.preRegistration.taxID.type', message: 'does not match the tax id (a CPF)' },
  ]);
});

test('pre-registration: the user may come without a tax id (existing clients send none)', async () => {
  const { taxID: _left, ...user } = body.user;
  const res = await server.client.post(
    '/api/v1/partner/company',
    { preRegistration: { name: 'Mercado Sol', taxID: { taxID: '11444777000161', type: 'BR:CNPJ' } }, user },
    { auth: partner.appID },
  );
  assert.is(res.status, 201, res.text);
  assert.equal(res.body.user, {
    firstName: 'Ana',
    lastName: 'Ferreira',
    email: 'ana.ferreira@padariaestrela.com.br',
    phone: '+5519987651234',
  });
  assert.equal(
    (await server.client.get('/api/v1/partner/company/11444777000161', { auth: partner.appID })).body.preRegistration
      .user,
    res.body.user,
  );
});

test('application: makes the affiliate company; the credential works; same name answers 200 without the secret', async () => {
  assert.equal((await server.client.get('/api/v1/partner/affiliate', { auth: partner.appID })).body, {
    affiliates: [],
    pageInfo: { ...page1, totalCount: 0 },
  });
  const created = await server.client.post('/api/v1/partner/application', app, { auth: partner.appID });
  assert.is(created.status, 201, created.text);
  const a = created.body.application;
  assert.equal(a, {
    name: 'Padaria Estrela - PDV',
    isActive: true,
    type: 'PLUGIN',
    clientId: a.clientId,
    clientSecret: a.clientSecret,
    appID: a.appID,
    scopes: ['COMPANY_GET', 'CHARGE_GET'],
  });
  assert.is(a.appID, Buffer.from(`${a.clientId}:${a.clientSecret}`).toString('base64'));
  const company = await server.client.get('/api/v1/company', { auth: a.appID });
  assert.is(company.status, 200, company.text);
  assert.is(company.body.company.taxID, '19382956000123');
  const accounts = await server.client.get('/api/v1/account/', { auth: a.appID });
  assert.is(accounts.status, 403, 'scopes apply: ACCOUNT_GET_LIST was not granted');
  const again = await server.client.post(
    '/api/v1/partner/application',
    { ...app, application: { ...app.application, scopes: ['CHARGE_POST'] } },
    { auth: partner.appID },
  );
  assert.equal(
    [again.status, again.body],
    [
      200,
      {
        application: {
          name: 'Padaria Estrela - PDV',
          isActive: true,
          type: 'PLUGIN',
          clientId: a.clientId,
          scopes: ['COMPANY_GET', 'CHARGE_GET'],
        },
      },
    ],
  );
  const second = await server.client.post(
    '/api/v1/partner/application',
    { ...app, application: { name: 'ERP', type: 'API' } },
    { auth: partner.appID },
  );
  assert.is(second.status, 201);
  assert.is(
    (await server.client.get('/api/v1/company', { auth: second.body.application.appID })).body.company.id,
    company.body.company.id,
    'same company',
  );

  const affiliates = await server.client.get('/api/v1/partner/affiliate', { auth: partner.appID });
  assert.equal(affiliates.body, {
    affiliates: [
      {
        name: 'Padaria Estrela Ltda',
        taxID: { taxID: '19382956000123', type: 'BR:CNPJ' },
        correlationID: company.body.company.id,
        createdAt: affiliates.body.affiliates[0].createdAt,
      },
    ],
    pageInfo: page1,
  });
  const pre = await server.client.get('/api/v1/partner/company/19382956000123', { auth: partner.appID });
  assert.equal(pre.body.preRegistration, {
    ...stored,
    company: {
      id: company.body.company.id,
      name: 'Padaria Estrela Ltda',
      taxID: { taxID: '19382956000123', type: 'BR:CNPJ' },
    },
    account: { clientId: a.clientId },
  });
});

test('application: refused input and unknown pre-registrations', async () => {
  assert.equal(
    (
      await server.client.post(
        '/api/v1/partner/application',
        { ...app, taxID: { taxID: '11222333000181', type: 'BR:CNPJ' } },
        { auth: partner.appID },
      )
    ).body,
    { error: 'Pre registration not found' },
  );
  assert.equal(
    (
      await server.client.post(
        '/api/v1/partner/application',
        { ...app, application: { ...app.application, scopes: ['NOT_A_SCOPE'] } },
        { auth: partner.appID },
      )
    ).body,
    { error: 'Invalid scopes: NOT_A_SCOPE' },
  );
  const other = await createCompany(server.client, { features: ['PARTNER'] });
  const res = await server.client.post('/api/v1/partner/application', app, { auth: other.appID });
  assert.equal([res.status, res.body], [404, { error: 'Pre registration not found' }]);
  assert.equal((await server.client.get('/api/v1/partner/affiliate', { auth: other.appID })).body.affiliates, []);
});

test.run();
