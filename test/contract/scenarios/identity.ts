// Contract scenarios of identity, accounts and the sandbox.
import { createCompany } from '../../support/fixtures';
import { CONTRACT_OPERATOR_TOKEN } from './env';
import type { Scenario } from './types';

export const identityScenarios: Record<string, Scenario> = {
  async getAccount(env) {
    return { params: { accountId: env.company.accountId } };
  },
  // The example's accountId is replaced by the caller's own account.
  async createApplication(env, example) {
    const body = structuredClone(example) as { accountId: string };
    body.accountId = env.company.accountId;
    return { body };
  },
  // Deletes an application made for the purpose.
  async deleteApplication(env) {
    const res = await env.client.post(
      '/api/v1/application',
      { accountId: env.company.accountId, application: { name: 'to delete', type: 'API', scopes: ['CHARGE_GET'] } },
      { auth: env.company.appID },
    );
    return { body: { clientId: res.body.application.clientId } };
  },
  // A fresh company each time: the shared one keeps the features other replays need.
  async setCompanyFeatures(env) {
    const company = await createCompany(env.client);
    return { params: { companyId: company.companyId }, auth: `Bearer ${CONTRACT_OPERATOR_TOKEN}` };
  },
  async setSandboxCompanyFeatures(env) {
    return { auth: (await createCompany(env.client)).appID };
  },
  // Each replay uses a fresh company's credentials (the example's are made up).
  async issueToken(env) {
    const company = await createCompany(env.client);
    return { auth: 'Basic ' + Buffer.from(`${company.clientId}:${company.clientSecret}`).toString('base64') };
  },
};
