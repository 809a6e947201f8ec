// Contract scenarios of subaccounts, transfers and statements: fresh subaccounts (funded by a
// Pix to their key when the example moves money) so every example replays more than once.
import { randomUUID } from 'node:crypto';
import type { ContractEnv, Scenario } from './types';

const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

async function pixIn(env: ContractEnv, pixKey: string, value: number): Promise<void> {
  const res = await env.client.post('/api/v1/sandbox/pix-in', { pixKey, value, payer });
  if (res.status !== 200) throw new Error(`subaccount scenario pix-in: ${res.status} ${res.text}`);
}

// A new subaccount of the company; with `funds`, that much received on its key.
async function newSubAccount(env: ContractEnv, funds = 0): Promise<string> {
  const pixKey = randomUUID();
  const res = await env.client.post(
    '/api/v1/subaccount',
    { pixKey, name: 'Subconta do contrato' },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`subaccount scenario: ${res.status} ${res.text}`);
  if (funds > 0) await pixIn(env, pixKey, funds);
  return pixKey;
}

export const subAccountScenarios: Record<string, Scenario> = {
  async createSubAccount(_env, example) {
    return { body: { ...(example as Record<string, unknown>), pixKey: randomUUID() } };
  },
  async getSubAccount(env) {
    return { params: { id: await newSubAccount(env) } };
  },
  async deleteSubAccount(env) {
    return { params: { id: await newSubAccount(env) } };
  },
  async getSubAccountStatement(env) {
    return { params: { id: await newSubAccount(env, 500) } };
  },
  async withdrawFromSubAccount(env) {
    return { params: { id: await newSubAccount(env, 5000) } };
  },
  async debitSubAccount(env) {
    return { params: { id: await newSubAccount(env, 5000) } };
  },
  async creditSubAccount(env) {
    await pixIn(env, env.company.pixKey, 5000);
    return { params: { id: await newSubAccount(env) } };
  },
  async transferBetweenSubAccounts(env, example) {
    const [fromPixKey, toPixKey] = [await newSubAccount(env, 5000), await newSubAccount(env)];
    return { body: { ...(example as Record<string, unknown>), fromPixKey, toPixKey } };
  },
  async createTransfer(env, example) {
    await pixIn(env, env.company.pixKey, 5000);
    return {
      body: {
        ...(example as Record<string, unknown>),
        fromPixKey: env.company.pixKey,
        toPixKey: await newSubAccount(env),
        correlationID: `contract-${randomUUID()}`,
      },
    };
  },
};
