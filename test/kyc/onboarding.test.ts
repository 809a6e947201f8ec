// KYC onboarding: create (CNPJ checked, correlationID defaulting to the CNPJ, idempotent by
// correlationID, one per CNPJ), deterministic enrichment, representatives (upsert by CPF),
// submit and the sandbox review; tenancy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let a: TestCompany;
let b: TestCompany;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const post = (c: TestCompany, path: string, body: unknown) => server.client.post(path, body, { auth: c.appID });
const get = (c: TestCompany, path: string) => server.client.get(path, { auth: c.appID });

test.before(async () => {
  server = await startTestServer();
  a = await createCompany(server.client);
  b = await createCompany(server.client);
});
test.after(async () => server.close());

test('create: masked CNPJ, correlationID defaults to the CNPJ, names filled by the sandbox enrichment', async () => {
  const res = await post(a, '/api/v1/kyc/onboarding', {
    taxID: '45.318.764/0001-68',
    redirectUrl: 'https://www.tecidosbrasil.com.br/fim',
    representatives: [
      { taxID: '071.498.753-00', email: 'Carla.Ribeiro@tecidosbrasil.com.br', phone: '5511965432187' },
      { taxID: '26801573110', name: 'Paulo Duarte' },
    ],
  });
  assert.is(res.status, 201, res.text);
  const o = res.body.onboarding;
  assert.match(o.link, new RegExp(`^${server.services.config.publicUrl}/kyc/onboarding/[0-9a-f]{32}$`));
  assert.match(o.createdAt, ISO);
  const [r1, r2] = o.representatives;
  assert.match(r1.id, /^[0-9a-f]{24}$/);
  assert.equal(o, {
    correlationID: '45318764000168',
    taxID: '45318764000168',
    officialName: 'Empresa 45318764 Ltda',
    tradeName: 'Empresa 45318764',
    status: 'PENDING',
    link: o.link,
    redirectUrl: 'https://www.tecidosbrasil.com.br/fim',
    representatives: [
      {
        id: r1.id,
        name: 'Representante ***.498.753-**',
        email: 'carla.ribeiro@tecidosbrasil.com.br',
        phone: '+5511965432187',
        taxID: '07149875300',
        emailVerified: false,
        phoneVerified: false,
        targetAdministrator: false,
        createdAt: o.createdAt,
        updatedAt: o.createdAt,
      },
      {
        id: r2.id,
        name: 'Paulo Duarte',
        taxID: '26801573110',
        emailVerified: false,
        phoneVerified: false,
        targetAdministrator: false,
        createdAt: o.createdAt,
        updatedAt: o.createdAt,
      },
    ],
    createdAt: o.createdAt,
    updatedAt: o.createdAt,
  });
});

test('idempotent by correlationID: 200 with the original onboarding and redirectUrl', async () => {
  const first = await post(a, '/api/v1/kyc/onboarding', {
    taxID: '11222333000181',
    correlationID: 'onb-1',
    redirectUrl: 'https://a.example.com.br/1',
  });
  assert.is(first.status, 201);
  const again = await post(a, '/api/v1/kyc/onboarding', {
    taxID: '11.222.333/0001-81',
    correlationID: 'onb-1',
    redirectUrl: 'https://a.example.com.br/2',
    representatives: [{ taxID: '52998224725' }],
  });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  assert.is(again.body.onboarding.redirectUrl, 'https://a.example.com.br/1');
  // Another company may use the same correlationID and CNPJ.
  const other = await post(b, '/api/v1/kyc/onboarding', { taxID: '11222333000181', correlationID: 'onb-1' });
  assert.is(other.status, 201);
  assert.is.not(other.body.onboarding.link, first.body.onboarding.link);
});

test('one onboarding per CNPJ: another correlationID answers 409', async () => {
  const res = await post(a, '/api/v1/kyc/onboarding', { taxID: '11222333000181', correlationID: 'onb-2' });
  assert.is(res.status, 409);
  assert.equal(res.body, { error: 'An onboarding of this CNPJ already exists with correlationID onb-1' });
});

test('refused input: CNPJ check digits, a CPF, the phone, a repeated CPF', async () => {
  let res = await post(a, '/api/v1/kyc/onboarding', { taxID: '45318764000167' });
  assert.equal(
    [res.status, res.body],
    [400, { error: 'Invalid CNPJ', details: [{ field: 'body.taxID', message: 'CNPJ check digits do not match' }] }],
  );
  res = await post(a, '/api/v1/kyc/onboarding', {
    taxID: '19382956000123',
    representatives: [
      { taxID: '07149875301' },
      { taxID: '52998224725', phone: '+12025550143' },
      { taxID: '529.982.247-25' },
    ],
  });
  assert.is(res.status, 400);
  assert.equal(res.body, {
    error: 'Validation error',
    details: [
      { field: 'body.representatives[0].taxID', message: 'CPF check digits do not match' },
      {
        field: 'body.representatives[1].phone',
        message: 'phone must be +55 followed by a 2-digit area code and an 8 or 9-digit number',
      },
      { field: 'body.representatives[2].taxID', message: 'the same CPF appears twice' },
    ],
  });
  assert.is(
    (await get(a, '/api/v1/kyc/representatives?correlationID=19382956000123')).status,
    404,
    'nothing was written',
  );
});

test('representatives: add, list (by correlationID or CNPJ), update by CPF; tenancy', async () => {
  const added = await post(a, '/api/v1/kyc/representatives', {
    correlationID: 'onb-1',
    taxID: '268.015.731-10',
    email: 'paulo@a.com.br',
    phone: '5511912345678',
    targetAdministrator: true,
  });
  assert.is(added.status, 201, added.text);
  const rep = added.body.representative;
  assert.equal(rep, {
    id: rep.id,
    name: 'Representante ***.015.731-**',
    email: 'paulo@a.com.br',
    phone: '+5511912345678',
    taxID: '26801573110',
    emailVerified: false,
    phoneVerified: false,
    targetAdministrator: true,
    createdAt: rep.createdAt,
    updatedAt: rep.createdAt,
  });
  const updated = await post(a, '/api/v1/kyc/representatives', {
    correlationID: '11.222.333/0001-81',
    taxID: '26801573110',
    name: 'Paulo Henrique',
    email: 'paulo.h@a.com.br',
    phone: '+5511912345678',
  });
  assert.is(updated.status, 200);
  assert.equal(updated.body.representative, {
    ...rep,
    name: 'Paulo Henrique',
    email: 'paulo.h@a.com.br',
    updatedAt: updated.body.representative.updatedAt,
  });
  const list = await get(a, '/api/v1/kyc/representatives?correlationID=11222333000181&limit=1');
  assert.equal(list.body, {
    representatives: [updated.body.representative],
    pageInfo: { skip: 0, limit: 1, totalCount: 1, hasPreviousPage: false, hasNextPage: false },
  });
  // Company b has its own onb-1 with no representatives; a's register is invisible to it.
  const fromB = await get(b, '/api/v1/kyc/representatives?correlationID=onb-1');
  assert.equal(fromB.body.representatives, []);
  assert.equal((await get(b, '/api/v1/kyc/representatives?correlationID=45318764000168')).body, {
    error: 'Onboarding not found',
  });
  assert.equal(
    (
      await post(b, '/api/v1/kyc/representatives', {
        correlationID: '45318764000168',
        taxID: '26801573110',
        email: 'x@b.com.br',
        phone: '+5511912345678',
      })
    ).body,
    { error: 'Onboarding not found' },
  );
});

test('submit, then the sandbox review; terminal states refuse changes', async () => {
  const none = await post(b, '/api/v1/kyc/onboarding/onb-1/submit', undefined);
  assert.equal([none.status, none.body], [400, { error: 'Onboarding has no representatives' }]);
  const submitted = await post(a, '/api/v1/kyc/onboarding/onb-1/submit', undefined);
  assert.is(submitted.status, 200, submitted.text);
  assert.is(submitted.body.onboarding.status, 'SUBMITTED');
  // Submitting opens the company's account register, readable by correlationID or CNPJ.
  const register = async (path: string) => server.client.get(path, { auth: a.appID });
  const opened = await register('/api/v1/account-register/onb-1');
  assert.equal(
    [opened.status, opened.body.status, opened.body.type, opened.body.correlationID],
    [200, 'PENDING', 'BAAS', 'onb-1'],
    opened.text,
  );
  const cnpj = opened.body.taxID.taxID as string;
  assert.equal((await register(`/api/v1/account-register/${cnpj}`)).body, opened.body);
  assert.equal((await register('/api/v1/account-register?correlationID=onb-1')).body, opened.body);
  assert.equal((await server.client.get(`/api/v1/account-register/${cnpj}`, { auth: b.appID })).body, {
    error: 'Account register not found',
  });
  assert.equal(
    (await post(a, '/api/v1/kyc/onboarding/onb-1/submit', undefined)).body,
    submitted.body,
    'submitting again answers the same',
  );
  const late = await post(a, '/api/v1/kyc/representatives', {
    correlationID: 'onb-1',
    taxID: '52998224725',
    email: 'm@a.com.br',
    phone: '+5511912345670',
  });
  assert.equal([late.status, late.body], [400, { error: 'Onboarding is already SUBMITTED' }]);
  const link = submitted.body.onboarding.link;
  const approved = await server.client.post('/api/v1/sandbox/kyc/review', { link, decision: 'APPROVED' });
  assert.is(approved.status, 200, approved.text);
  assert.is(approved.body.onboarding.status, 'APPROVED');
  assert.is(
    (await register('/api/v1/account-register/onb-1')).body.status,
    'APPROVED',
    'the analysis settles the register',
  );
  assert.equal((await server.client.delete('/api/v1/account-register/onb-1', { auth: a.appID })).body, {
    error: 'Only account registers in PENDING status can be deleted',
  });
  assert.equal((await server.client.post('/api/v1/sandbox/kyc/review', { link, decision: 'REJECTED' })).body, {
    error: 'Only a SUBMITTED onboarding can be reviewed (it is APPROVED)',
  });
  assert.equal((await post(a, '/api/v1/kyc/onboarding/onb-1/submit', undefined)).body, {
    error: 'Onboarding is already APPROVED',
  });
  assert.equal(
    (
      await server.client.post('/api/v1/sandbox/kyc/review', {
        link: `${server.url}/kyc/onboarding/${'0'.repeat(32)}`,
        decision: 'APPROVED',
      })
    ).body,
    { error: 'Onboarding not found' },
  );
  // b cannot submit a's register.
  assert.equal((await post(b, '/api/v1/kyc/onboarding/45318764000168/submit', undefined)).body, {
    error: 'Onboarding not found',
  });
});

test('scopes: an application without KYC_ONBOARDING_POST is refused', async () => {
  const app = await post(a, '/api/v1/application', {
    accountId: a.accountId,
    application: { name: 'kyc reader', type: 'API', scopes: ['KYC_REPRESENTATIVES_GET'] },
  });
  const res = await server.client.post(
    '/api/v1/kyc/onboarding',
    { taxID: '19382956000123' },
    { auth: app.body.application.appID },
  );
  assert.is(res.status, 403);
  assert.is(
    (
      await server.client.get('/api/v1/kyc/representatives?correlationID=45318764000168', {
        auth: app.body.application.appID,
      })
    ).status,
    200,
  );
});

test('account registers without an Authorization header: 400 Invalid Authorization header (the seed), bad credentials 401', async () => {
  for (const [method, path] of [
    ['GET', '/api/v1/account-register?correlationID=onb-1'],
    ['GET', '/api/v1/account-register/onb-1'],
    ['DELETE', '/api/v1/account-register/onb-1'],
  ] as const) {
    const missing = await server.client.request(method, path);
    assert.equal([missing.status, missing.body], [400, { error: 'Invalid Authorization header' }], `${method} ${path}`);
    const wrong = await server.client.request(method, path, { auth: 'not-an-app-id' });
    assert.is(wrong.status, 401, `${method} ${path}`);
  }
  // Everywhere else a missing header is 401.
  assert.is((await server.client.get('/api/v1/charge')).status, 401);
});

test.run();
