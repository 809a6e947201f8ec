// Contract scenarios of money out: accounts (duplicate, close, withdraw), account registers,
// limits, payments and Pix keys. Funds come straight from the ledger (an outside credit).
import { randomUUID } from 'node:crypto';
import { findAccountRegister, insertAccountRegister } from '../../../src/accounts/account-registers.repository';
import { applyMove, counterLeg, OUTSIDE } from '../../../src/ledger/ledger.service';
import type { ContractEnv, Scenario } from './types';

// Credits the company's account once per run (scenarios may run more than once).
async function fund(env: ContractEnv): Promise<void> {
  await env.db!.transaction().execute((trx) =>
    applyMove(trx, {
      moveId: `contract-fund:${env.company.accountId}`,
      legs: [
        { accountId: env.company.accountId, kind: 'CREDIT', amount: 4_000_000 as never },
        counterLeg(OUTSIDE, -4_000_000),
      ],
      at: new Date(),
    }),
  );
}

async function ensureRegister(env: ContractEnv, correlationID: string): Promise<void> {
  if (await findAccountRegister(env.db!, env.company.companyId, correlationID)) return;
  const at = new Date();
  await insertAccountRegister(env.db!, {
    id: randomUUID(),
    company_id: env.company.companyId,
    correlation_id: correlationID,
    type: 'BAAS',
    official_name: 'Aurora Moda Comercio de Roupas Ltda',
    trade_name: 'Aurora Moda',
    tax_id: '11222333000181',
    tax_id_type: 'BR_CNPJ',
    status: 'PENDING',
    created_at: at,
    updated_at: at,
  });
}

async function newEvpKey(env: ContractEnv): Promise<string> {
  const res = await env.client.post('/api/v1/pix-keys', { key: 'generated', type: 'EVP' }, { auth: env.company.appID });
  if (res.status !== 201) throw new Error(`pix key scenario: ${res.status} ${res.text}`);
  return res.body.key;
}

export const paymentScenarios: Record<string, Scenario> = {
  // Closes a second (empty) account made for the purpose.
  async deleteAccount(env) {
    const res = await env.client.post('/api/v1/account', undefined, { auth: env.company.appID });
    if (res.status !== 200) throw new Error(`account scenario: ${res.status} ${res.text}`);
    return { params: { accountId: res.body.account.accountId } };
  },
  async withdrawFromAccount(env) {
    await fund(env);
    return { params: { accountId: env.company.accountId } };
  },
  async getAccountRegister(env) {
    await ensureRegister(env, 'registro-aurora-2026');
    return {};
  },
  async getAccountRegisterById(env) {
    await ensureRegister(env, 'registro-aurora-2026');
    return { params: { id: '11222333000181' } };
  },
  async deleteAccountRegister(env) {
    const correlationID = `registro-${randomUUID()}`;
    await ensureRegister(env, correlationID);
    return { params: { id: correlationID } };
  },
  async getAccountLimits(env) {
    return { params: { accountId: env.company.accountId } };
  },
  async createPayment(env) {
    await fund(env);
    return {};
  },
  // Approves a payment created for the purpose (the create examples may have run already).
  async approvePayment(env) {
    await fund(env);
    const correlationID = `contract-approve-${randomUUID()}`;
    const res = await env.client.post(
      '/api/v1/payment',
      {
        type: 'PIX_KEY',
        value: 1000,
        destinationAlias: 'fornecedor@tecidosbrasil.com.br',
        destinationAliasType: 'EMAIL',
        correlationID,
      },
      { auth: env.company.appID },
    );
    if (res.status !== 200) throw new Error(`payment scenario: ${res.status} ${res.text}`);
    return { body: { correlationID } };
  },
  // The example's CNPJ is replaced by the company's own.
  async createPixKey(env, example) {
    const body = structuredClone(example) as { key: string; type: string };
    if (body.type === 'CNPJ')
      body.key = (await env.client.get('/api/v1/company', { auth: env.company.appID })).body.company.taxID;
    return { body };
  },
  async deletePixKey(env) {
    return { params: { pixKey: await newEvpKey(env) } };
  },
  async setDefaultPixKey(env) {
    return { params: { pixKey: await newEvpKey(env) } };
  },
};
