// Contract scenarios of KYC onboarding, one-time codes and partners: each replay gets a fresh
// company and register (one onboarding per CNPJ per company), or a partner company with a
// pre-registration, so the example can run.
import * as assert from 'uvu/assert';
import { createCompany } from '../../support/fixtures';
import type { ContractEnv, Scenario } from './types';

let seq = 0;

async function onboarding(
  env: ContractEnv,
): Promise<{ correlationID: string; representativeId: string; link: string }> {
  const correlationID = `contract-kyc-${++seq}-${Date.now()}`;
  const res = await env.client.post(
    '/api/v1/kyc/onboarding',
    {
      taxID: '45318764000168',
      correlationID,
      representatives: [{ taxID: '07149875300', email: `carla${seq}@tecidosbrasil.com.br`, phone: '+5511965432187' }],
    },
    { auth: env.company.appID },
  );
  assert.is(res.status, 201, res.text);
  return { correlationID, representativeId: res.body.onboarding.representatives[0].id, link: res.body.onboarding.link };
}

// A company of its own per scenario (the CNPJ of the examples is then free), returning its appID.
async function fresh(env: ContractEnv, features?: string[]): Promise<ContractEnv> {
  return { ...env, company: await createCompany(env.client, features ? { features } : {}) };
}

async function partnerWithPreRegistration(env: ContractEnv): Promise<string> {
  const partner = await createCompany(env.client, { features: ['PARTNER'] });
  const res = await env.client.post(
    '/api/v1/partner/company',
    {
      preRegistration: { name: 'Padaria Estrela Ltda', taxID: { taxID: '19382956000123', type: 'BR:CNPJ' } },
      user: {
        firstName: 'Ana',
        lastName: 'Ferreira',
        email: 'ana.ferreira@padariaestrela.com.br',
        phone: '+5519987651234',
        taxID: { taxID: '85029375457', type: 'BR:CPF' },
      },
    },
    { auth: partner.appID },
  );
  assert.is(res.status, 201, res.text);
  return partner.appID;
}

const withRepresentative: Scenario = async (env, example) => {
  const own = await fresh(env);
  const o = await onboarding(own);
  return {
    body: { ...(example as object), correlationID: o.correlationID, representativeId: o.representativeId },
    auth: own.company.appID,
  };
};

export const kycScenarios: Record<string, Scenario> = {
  async createKycOnboarding(env) {
    return { auth: (await fresh(env)).company.appID };
  },
  async submitKycOnboarding(env) {
    const own = await fresh(env);
    const o = await onboarding(own);
    return { params: { correlationID: o.correlationID }, auth: own.company.appID };
  },
  async listKycRepresentatives(env) {
    const own = await fresh(env);
    const o = await onboarding(own);
    return { query: { correlationID: o.correlationID }, auth: own.company.appID };
  },
  async createKycRepresentative(env, example) {
    const own = await fresh(env);
    const o = await onboarding(own);
    return { body: { ...(example as object), correlationID: o.correlationID }, auth: own.company.appID };
  },
  sendKycRepresentativeEmailCode: withRepresentative,
  sendKycRepresentativePhoneCode: withRepresentative,
  verifyKycRepresentativeEmailCode: withRepresentative,
  verifyKycRepresentativePhoneCode: withRepresentative,
  async getSandboxKycCode(env) {
    const own = await fresh(env);
    const o = await onboarding(own);
    const sent = await env.client.post(
      '/api/v1/kyc/representatives/email-code/send',
      { correlationID: o.correlationID, representativeId: o.representativeId },
      { auth: own.company.appID },
    );
    assert.equal(sent.body, { outcome: 'CODE_SENT' });
    return { query: { representativeId: o.representativeId, channel: 'EMAIL' } };
  },
  async getSandboxKycInbox(env) {
    const own = await fresh(env);
    const o = await onboarding(own);
    const sent = await env.client.post(
      '/api/v1/kyc/representatives/email-code/send',
      { correlationID: o.correlationID, representativeId: o.representativeId },
      { auth: own.company.appID },
    );
    assert.equal(sent.body, { outcome: 'CODE_SENT' });
    return { query: { address: `carla${seq}@tecidosbrasil.com.br` } };
  },
  async getKycOnboardingPage(env) {
    const own = await fresh(env);
    const o = await onboarding(own);
    return { params: { token: o.link.split('/').pop()! } };
  },
  async reviewSandboxKycOnboarding(env, example) {
    const own = await fresh(env);
    const o = await onboarding(own);
    const submitted = await env.client.post(`/api/v1/kyc/onboarding/${o.correlationID}/submit`, undefined, {
      auth: own.company.appID,
    });
    assert.is(submitted.status, 200, submitted.text);
    return { body: { ...(example as object), link: o.link } };
  },
  async createPartnerPreRegistration(env) {
    return { auth: (await fresh(env, ['PARTNER'])).company.appID };
  },
  async getPartnerPreRegistration(env) {
    return { auth: await partnerWithPreRegistration(env) };
  },
  async createPartnerApplication(env) {
    return { auth: await partnerWithPreRegistration(env) };
  },
};
