// Contract scenarios of money in: received Pix (from the sandbox's outside payer, to the
// company's key or paying its charges), their devolutions and the refunds of charges and of
// any received Pix.
import { randomUUID } from 'node:crypto';
import { buildStaticBrCode, parseBrCode } from '../../../src/lib/brcode';
import { newTxid } from '../../../src/lib/ids';
import { cents } from '../../../src/lib/money';
import type { ContractEnv, Scenario } from './types';

const payer = { name: 'Mariana Alves Costa', taxID: '52998224725' };

async function pixIn(env: ContractEnv, value: number): Promise<string> {
  const res = await env.client.post('/api/v1/sandbox/pix-in', { pixKey: env.company.pixKey, value, payer });
  if (res.status !== 200) throw new Error(`pix-in scenario: ${res.status} ${res.text}`);
  return res.body.endToEndId;
}

async function pay(env: ContractEnv, brCode: string, value?: number): Promise<string> {
  const res = await env.client.post('/api/v1/sandbox/pay', { brCode, payer, ...(value ? { value } : {}) });
  if (res.status !== 200) throw new Error(`pay scenario: ${res.status} ${res.text}`);
  return res.body.endToEndId;
}

async function newCharge(env: ContractEnv): Promise<{ correlationID: string; brCode: string }> {
  const res = await env.client.post(
    '/api/v1/charge',
    { correlationID: `pixin-${randomUUID()}`, value: 15990 },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`charge scenario: ${res.status} ${res.text}`);
  return res.body.charge;
}

// A purchase of 32.50 with 50.00 of change (Pix Troco): refundable with natureza RETIRADA.
async function trocoPix(env: ContractEnv): Promise<string> {
  const body = {
    calendario: { expiracao: 1800 },
    valor: {
      original: '32.50',
      modalidadeAlteracao: 0,
      retirada: {
        troco: {
          valor: '50.00',
          modalidadeAlteracao: 0,
          modalidadeAgente: 'AGTEC',
          prestadorDoServicoDeSaque: '13370835',
        },
      },
    },
    chave: env.company.pixKey,
  };
  const res = await env.client.put(`/pix/v2/cob/${newTxid()}`, body, { auth: env.bearer });
  if (res.status !== 201) throw new Error(`cob troco scenario: ${res.status} ${res.text}`);
  return pay(env, res.body.pixCopiaECola, 8250);
}

export const pixinScenarios: Record<string, Scenario> = {
  async getPix(env) {
    return { params: { e2eid: await pixIn(env, 128000) } };
  },
  async putDevolucao(env, example) {
    const retirada = (example as { natureza?: string } | undefined)?.natureza === 'RETIRADA';
    return { params: { e2eid: retirada ? await trocoPix(env) : await pixIn(env, 128000), id: 'DEV10491A' } };
  },
  async getDevolucao(env) {
    const e2eid = await pixIn(env, 128000);
    const res = await env.client.put(
      `/pix/v2/pix/${e2eid}/devolucao/DEV10491A`,
      { valor: '120.00' },
      { auth: env.bearer },
    );
    if (res.status !== 201) throw new Error(`devolucao scenario: ${res.status} ${res.text}`);
    return { params: { e2eid, id: 'DEV10491A' } };
  },
  async listChargeRefunds(env) {
    const charge = await newCharge(env);
    await pay(env, charge.brCode);
    return { params: { id: charge.correlationID } };
  },
  // A paid charge of its own; the refund's correlationID made unique (unique per company).
  async createChargeRefund(env, example) {
    const charge = await newCharge(env);
    await pay(env, charge.brCode);
    const body = { ...(example as Record<string, unknown>), correlationID: `estorno-${randomUUID()}` };
    return { params: { id: charge.correlationID }, body };
  },
  // A Pix of its own received without a charge; the refund's correlationID made unique.
  async createRefund(env, example) {
    const transactionEndToEndId = await pixIn(env, 30000);
    return {
      body: {
        ...(example as Record<string, unknown>),
        transactionEndToEndId,
        correlationID: `devolve-${randomUUID()}`,
      },
    };
  },
  async getRefund(env) {
    const transactionEndToEndId = await pixIn(env, 30000);
    const correlationID = `devolve-${randomUUID()}`;
    const res = await env.client.post(
      '/api/v1/refund',
      { transactionEndToEndId, correlationID, value: 1500 },
      { auth: env.company.appID },
    );
    if (res.status !== 200) throw new Error(`refund scenario: ${res.status} ${res.text}`);
    return { params: { id: correlationID } };
  },
  // The examples' codes belong to no company here: a charge of the company (dynamic) or a
  // static code on its key with the example's amount and txid.
  async sandboxPay(env, example) {
    const body = example as { brCode: string; value?: number };
    const parsed = parseBrCode(body.brCode);
    if (parsed.ok && parsed.value.kind === 'dynamic')
      return { body: { ...body, brCode: (await newCharge(env)).brCode } };
    const brCode = buildStaticBrCode({
      pixKey: env.company.pixKey,
      merchantName: 'AURORA MODA LTDA',
      merchantCity: 'SAO PAULO',
      amount: cents(body.value ?? 2500),
      txid: 'CAFEBALCAO01',
    });
    return { body: { ...body, brCode } };
  },
  async sandboxPixIn(env, example) {
    return { body: { ...(example as Record<string, unknown>), pixKey: env.company.pixKey } };
  },
};
