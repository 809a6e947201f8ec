// Contract scenarios of client certificates (mutual TLS) and the webhook TLS settings.
import * as assert from 'uvu/assert';
import type { ContractEnv, Scenario } from './types';

// A certificate of the company's MASTER application, its key made by the sandbox.
async function certificateOf(env: ContractEnv): Promise<Record<string, string>> {
  const res = await env.client.post(
    `/api/v1/application/${encodeURIComponent(env.company.clientId)}/certificates`,
    { generateKey: true, password: 'contract-p12-password' },
    { auth: env.company.appID },
  );
  assert.is(res.status, 201, res.text);
  return { clientId: env.company.clientId, certificateId: res.body.certificate.id };
}

export const tlsScenarios: Record<string, Scenario> = {
  async createApplicationCertificate(env) {
    return { params: { clientId: env.company.clientId } };
  },
  async listApplicationCertificates(env) {
    return { params: { clientId: env.company.clientId } };
  },
  async getApplicationCertificate(env) {
    return { params: await certificateOf(env) };
  },
  async revokeApplicationCertificate(env) {
    return { params: await certificateOf(env) };
  },
};
