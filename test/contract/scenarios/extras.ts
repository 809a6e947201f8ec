// Contract scenarios of funds recoveries (MED), disputes, cashback and subscriptions.
import { randomUUID } from 'node:crypto';
import { newEndToEndId } from '../../../src/lib/ids';
import { insertTransaction } from '../../../src/transactions/transactions.repository';
import type { ContractEnv, Scenario } from './types';

// A Pix of the company as the payments (PIX_OUT) or money-in (PIX_IN) areas write it.
async function ownPix(env: ContractEnv, type: 'PIX_OUT' | 'PIX_IN', value = 15990): Promise<string> {
  const e2e = newEndToEndId('99999999', new Date());
  if (!env.db) throw new Error('extras scenarios need the database');
  await env.db.transaction().execute((trx) =>
    insertTransaction(trx, {
      company_id: env.company.companyId,
      account_id: env.company.accountId,
      type,
      value,
      end_to_end_id: e2e,
      charge_id: null,
      payment_id: null,
      created_at: new Date(),
      details: type === 'PIX_IN' ? { payer: { name: 'Mariana Alves Costa', taxID: '52998224725' } } : {},
    }),
  );
  return e2e;
}

async function newRecovery(env: ContractEnv): Promise<string> {
  const res = await env.client.post(
    '/api/v1/funds-recovery',
    { transactionEndToEndId: await ownPix(env, 'PIX_OUT'), situationType: 'SCAM', details: 'Contrato' },
    { auth: env.company.appID },
  );
  if (res.status !== 201) throw new Error(`funds recovery scenario: ${res.status} ${res.text}`);
  return res.body.fundsRecovery.dictId;
}

// A dispute opened (sandbox) on a new Pix received by the company.
async function newDispute(env: ContractEnv): Promise<string> {
  const e2e = await receivedPix(env);
  const res = await env.client.post('/api/v1/sandbox/disputes', { endToEndId: e2e, reason: 'Produto nao entregue' });
  if (res.status !== 201) throw new Error(`dispute scenario: ${res.status} ${res.text}`);
  return e2e;
}

// A Pix received by the company, through the sandbox payer when it is there.
async function receivedPix(env: ContractEnv): Promise<string> {
  const res = await env.client.post('/api/v1/sandbox/pix-in', {
    pixKey: env.company.pixKey,
    value: 15990,
    payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
  });
  if (res.status === 200) return res.body.endToEndId;
  return ownPix(env, 'PIX_IN');
}

export const extrasScenarios: Record<string, Scenario> = {
  async createFundsRecovery(env, example) {
    return { body: { ...(example as Record<string, unknown>), transactionEndToEndId: await ownPix(env, 'PIX_OUT') } };
  },
  async getFundsRecovery(env) {
    return { params: { id: await newRecovery(env) } };
  },
  async cancelFundsRecovery(env) {
    return { params: { id: await newRecovery(env) } };
  },
  // A completion example needs a recovery under analysis (its value blocked).
  async sandboxAdvanceFundsRecovery(env, example) {
    const id = await newRecovery(env);
    if ((example as { status?: string }).status === 'COMPLETED') {
      const res = await env.client.post(`/api/v1/sandbox/funds-recovery/${id}/advance`, {
        status: 'AWAITING_ANALYSIS',
      });
      if (res.status !== 200) throw new Error(`funds recovery scenario: ${res.status} ${res.text}`);
    }
    return { params: { id } };
  },
  async getDispute(env) {
    return { params: { id: await newDispute(env) } };
  },
  async addDisputeEvidence(env) {
    return { params: { id: await newDispute(env) } };
  },
  async sandboxOpenDispute(env, example) {
    return { body: { ...(example as Record<string, unknown>), endToEndId: await receivedPix(env) } };
  },
  async sandboxResolveDispute(env) {
    return { params: { id: await newDispute(env) } };
  },
  // A fresh correlationID lets the examples replay more than once.
  async createSubscription(_env, example) {
    const body = example as Record<string, unknown>;
    return { body: { ...body, correlationID: `${String(body.correlationID)}-${randomUUID()}` } };
  },
  async getSubscription(env) {
    const res = await env.client.post(
      '/api/v1/subscriptions',
      {
        value: 12990,
        correlationID: `contract-${randomUUID()}`,
        customer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
      },
      { auth: env.company.appID },
    );
    if (res.status !== 200) throw new Error(`subscription scenario: ${res.status} ${res.text}`);
    return { params: { id: res.body.subscription.globalID } };
  },
};
