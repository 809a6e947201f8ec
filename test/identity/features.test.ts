// A company's features change after it is made: by a platform operator (the operator token,
// any company) or in the sandbox by the company's own application (its company only). Every
// change is audited (actor, before, after, reason, request id) and the company's next request
// sees it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config';
import { createCompany, type TestCompany } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/server';

const TOKEN = 'operator-token-for-tests-0123456789abcdef';
let server: TestServer;
let a: TestCompany;
let b: TestCompany;

test.before(async () => {
  server = await startTestServer({ PIXGATE_OPERATOR_TOKEN: TOKEN });
  a = await createCompany(server.client, { features: ['BAAS'] });
  b = await createCompany(server.client, { features: ['BAAS', 'SPLIT'] });
});
test.after(async () => server.close());

const operatorPut = (companyId: string, body: unknown) =>
  server.client.put(`/api/v1/operator/companies/${companyId}/features`, body, { auth: `Bearer ${TOKEN}` });
const newApplication = (c: TestCompany) =>
  server.client.post(
    '/api/v1/application',
    { accountId: c.accountId, application: { name: `app ${Math.random()}`, type: 'API' } },
    { auth: c.appID },
  );
const auditOf = (companyId: string) =>
  server.database.db
    .selectFrom('company_feature_changes')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('changed_at')
    .execute();

test('an operator changes a company features: audited, and its next request sees them', async () => {
  assert.is((await newApplication(a)).status, 201, 'BAAS lets it make applications');
  const res = await operatorPut(a.companyId, { features: ['SPLIT', 'SPLIT'], reason: 'contrato encerrado' });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.company, { id: a.companyId, features: ['SPLIT'] });
  assert.equal(
    [res.body.change.actor, res.body.change.before, res.body.change.after, res.body.change.reason],
    ['OPERATOR', ['BAAS'], ['SPLIT'], 'contrato encerrado'],
  );
  assert.is(res.body.change.requestId, res.headers.get('x-request-id'));
  const refused = await newApplication(a);
  assert.equal([refused.status, refused.body.error], [403, 'You need feature BAAS to access this endpoint']);
  const [row] = await auditOf(a.companyId);
  assert.equal(
    [row!.actor, row!.application_id, row!.features_before, row!.features_after, row!.request_id],
    ['OPERATOR', null, ['BAAS'], ['SPLIT'], res.body.change.requestId],
  );
  assert.is((await operatorPut(a.companyId, { features: ['BAAS'] })).status, 200);
  assert.is((await newApplication(a)).status, 201, 'BAAS back');
  assert.is((await auditOf(a.companyId)).length, 2);
  // The other company was not touched.
  assert.is((await newApplication(b)).status, 201);
});

test('operator calls need the operator token; unknown companies and bad names are refused', async () => {
  for (const auth of [undefined, 'Bearer wrong-token-wrong-token-wrong-token!', a.appID, TOKEN]) {
    const res = await server.client.put(
      `/api/v1/operator/companies/${b.companyId}/features`,
      { features: [] },
      auth === undefined ? {} : { auth },
    );
    assert.equal([res.status, res.body.error], [401, 'Invalid Authorization header'], String(auth));
  }
  const missing = await operatorPut('00000000-0000-0000-0000-000000000000', { features: [] });
  assert.equal([missing.status, missing.body], [404, { error: 'Company not found' }]);
  const bad = await operatorPut(b.companyId, { features: ['split'] });
  assert.is(bad.status, 400, bad.text);
  assert.is((await auditOf(b.companyId)).length, 0, 'nothing refused was audited');
});

test('a server without an operator token refuses every operator call', async () => {
  const closed = await startTestServer();
  try {
    const c = await createCompany(closed.client);
    const res = await closed.client.put(
      `/api/v1/operator/companies/${c.companyId}/features`,
      { features: [] },
      { auth: 'Bearer ' },
    );
    assert.is(res.status, 401, res.text);
  } finally {
    await closed.close();
  }
  assert.throws(() => loadConfig({ PIXGATE_OPERATOR_TOKEN: 'short' }), /at least 32 characters/);
});

test('in the sandbox a company changes its own features with its own credentials only', async () => {
  const c = await createCompany(server.client, { features: ['BAAS'] });
  assert.is((await server.client.put('/api/v1/sandbox/company/features', { features: ['MED_API'] })).status, 401);
  const res = await server.client.put(
    '/api/v1/sandbox/company/features',
    { features: ['BAAS', 'KYC_REPRESENTATIVE_EMAIL_OTP'] },
    { auth: c.appID },
  );
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.company, { id: c.companyId, features: ['BAAS', 'KYC_REPRESENTATIVE_EMAIL_OTP'] });
  assert.is(res.body.change.actor, 'SANDBOX');
  const [row] = await auditOf(c.companyId);
  assert.equal([row!.actor, row!.features_before], ['SANDBOX', ['BAAS']]);
  assert.ok(row!.application_id, 'the calling application is kept');
  // The OTP feature now gates its KYC submit.
  const taxID = '45318764000168';
  await server.client.post(
    '/api/v1/kyc/onboarding',
    { taxID, representatives: [{ taxID: '07149875300', email: 'ana@feat.com.br' }] },
    { auth: c.appID },
  );
  const submit = await server.client.post(`/api/v1/kyc/onboarding/${taxID}/submit`, undefined, { auth: c.appID });
  assert.equal([submit.status, submit.body.error], [409, 'MISSING_REPRESENTATIVE_EMAIL_VERIFICATION']);
  assert.is((await auditOf(a.companyId)).length, 2, "another company's audit is unchanged");
});

test.run();
