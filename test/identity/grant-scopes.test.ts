// An application grants only what it holds: a non-MASTER application creates applications
// whose scopes are a subset of its own (POST /application, and a partner's POST
// /partner/application for an affiliate); only MASTER creates one without scopes (which may
// call every operation). The refusal is a 403 naming the scopes it cannot grant.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let acme: TestCompany;
let partner: TestCompany;

test.before(async () => {
  server = await startTestServer();
  acme = await createCompany(server.client);
  partner = await createCompany(server.client, { features: ['BAAS', 'PARTNER'] });
});
test.after(async () => server.close());

async function newApplication(by: string, accountId: string, application: Record<string, unknown>) {
  return server.client.post('/api/v1/application', { accountId, application }, { auth: by });
}

async function limited(scopes: string[]): Promise<string> {
  const res = await newApplication(acme.appID, acme.accountId, { name: `limited-${scopes.join('-')}`, scopes });
  assert.is(res.status, 201, res.text);
  return res.body.application.appID;
}

test('a non-MASTER application cannot create an application without scopes', async () => {
  const creator = await limited(['APPLICATION_POST']);
  for (const application of [{ name: 'tudo' }, { name: 'tudo', scopes: [] }]) {
    const res = await newApplication(creator, acme.accountId, application);
    assert.equal(
      [res.status, res.body],
      [403, { error: 'Only a MASTER application can create an application without scopes' }],
    );
  }
});

test('a non-MASTER application cannot grant scopes it does not hold, and what it refused cannot be used', async () => {
  const creator = await limited(['APPLICATION_POST']);
  const res = await newApplication(creator, acme.accountId, {
    name: 'saque',
    scopes: ['ACCOUNT_WITHDRAW_POST', 'PAYMENT_POST', 'APPLICATION_POST'],
  });
  assert.equal(
    [res.status, res.body],
    [403, { error: 'This application cannot grant scopes it does not hold: ACCOUNT_WITHDRAW_POST, PAYMENT_POST' }],
  );
  const apps = await server.database.db
    .selectFrom('applications')
    .select('name')
    .where('company_id', '=', acme.companyId)
    .where('name', 'in', ['saque', 'tudo'])
    .execute();
  assert.equal(apps, [], 'nothing was created');
});

test('a subset of its own scopes is granted, and works', async () => {
  const creator = await limited(['APPLICATION_POST', 'CHARGE_GET', 'cob.read']);
  const res = await newApplication(creator, acme.accountId, { name: 'leitor', scopes: ['CHARGE_GET', 'cob.read'] });
  assert.is(res.status, 201, res.text);
  assert.equal(res.body.application.scopes, ['CHARGE_GET', 'cob.read']);
  assert.is((await server.client.get('/api/v1/charge/none', { auth: res.body.application.appID })).status, 404);
  const same = await newApplication(creator, acme.accountId, { name: 'igual', scopes: ['APPLICATION_POST'] });
  assert.is(same.status, 201, same.text);
});

test('MASTER creates any scopes, and applications without scopes', async () => {
  const res = await newApplication(acme.appID, acme.accountId, { name: 'legado' });
  assert.is(res.status, 201, res.text);
  assert.is(res.body.application.scopes, undefined);
  const all = await newApplication(acme.appID, acme.accountId, { name: 'saque', scopes: ['ACCOUNT_WITHDRAW_POST'] });
  assert.is(all.status, 201, all.text);
});

test("a partner's application grants an affiliate at most its own scopes; only MASTER grants none", async () => {
  const pre = await server.client.post(
    '/api/v1/partner/company',
    {
      preRegistration: { name: 'Padaria Estrela Ltda', taxID: { taxID: '19.382.956/0001-23', type: 'BR:CNPJ' } },
      user: { firstName: 'Ana', lastName: 'Ferreira', email: 'ana@padariaestrela.com.br', phone: '+5519987651234' },
    },
    { auth: partner.appID },
  );
  assert.is(pre.status, 201, pre.text);
  const made = await newApplication(partner.appID, partner.accountId, {
    name: 'integrador',
    scopes: ['PARTNER_APPLICATION_POST', 'CHARGE_GET', 'CHARGE_POST'],
  });
  assert.is(made.status, 201, made.text);
  const integrator = made.body.application.appID;
  const affiliate = (application: Record<string, unknown>, by = integrator) =>
    server.client.post(
      '/api/v1/partner/application',
      { application: { type: 'API', ...application }, taxID: { taxID: '19382956000123', type: 'BR:CNPJ' } },
      { auth: by },
    );
  const wide = await affiliate({ name: 'pdv', scopes: ['CHARGE_GET', 'PAYMENT_POST', 'ACCOUNT_WITHDRAW_POST'] });
  assert.equal(
    [wide.status, wide.body],
    [403, { error: 'This application cannot grant scopes it does not hold: PAYMENT_POST, ACCOUNT_WITHDRAW_POST' }],
  );
  const none = await affiliate({ name: 'pdv' });
  assert.equal(
    [none.status, none.body],
    [403, { error: 'Only a MASTER application can create an application without scopes' }],
  );
  const ok = await affiliate({ name: 'pdv', scopes: ['CHARGE_GET'] });
  assert.is(ok.status, 201, ok.text);
  assert.equal(ok.body.application.scopes, ['CHARGE_GET']);
  const byMaster = await affiliate({ name: 'pdv-completo' }, partner.appID);
  assert.is(byMaster.status, 201, byMaster.text);
});

test.run();
