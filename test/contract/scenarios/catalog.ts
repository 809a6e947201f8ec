// Contract scenarios of customers, static QR codes and transactions.
import { randomUUID } from 'node:crypto';
import { insertTransaction } from '../../../src/transactions/transactions.repository';
import type { ContractEnv, Scenario } from './types';

// The customer of the examples, made once per company (GET first: scenarios may run twice).
async function ensureCustomer(env: ContractEnv, correlationID: string): Promise<void> {
  const found = await env.client.get(`/api/v1/customer/${encodeURIComponent(correlationID)}`, {
    auth: env.company.appID,
  });
  if (found.status === 200) return;
  const res = await env.client.post(
    '/api/v1/customer',
    { name: 'Cliente do contrato', taxID: '11144477735', correlationID },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`customer scenario: ${res.status} ${res.text}`);
}

async function newStaticQrCode(
  env: ContractEnv,
  value?: number,
): Promise<{ id: string; correlationID: string; identifier: string; brCode: string }> {
  const res = await env.client.post(
    '/api/v1/qrcode-static',
    { name: 'Contrato', correlationID: `contract-${randomUUID()}`, ...(value ? { value } : {}) },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`static QR code scenario: ${res.status} ${res.text}`);
  return res.body.pixQrCode;
}

export const catalogScenarios: Record<string, Scenario> = {
  // The example's customer is made by its own correlationID, under another tax id than the
  // create example's (which is replayed as is).
  async getCustomer(env) {
    await ensureCustomer(env, 'contract-customer');
    return { params: { id: 'contract-customer' } };
  },
  async updateCustomer(env) {
    await ensureCustomer(env, 'contract-customer');
    return { params: { id: 'contract-customer' } };
  },
  // The example's key belongs to no company here: the company's default key is used, and a
  // fresh correlationID lets the examples replay more than once.
  async createStaticQrCode(_env, example) {
    const { pixKey: _key, ...body } = example as Record<string, unknown>;
    return { body: { ...body, correlationID: `${String(body.correlationID)}-${randomUUID()}` } };
  },
  async getStaticQrCode(env) {
    return { params: { id: (await newStaticQrCode(env, 2500)).correlationID } };
  },
  async deleteStaticQrCode(env) {
    return { params: { id: (await newStaticQrCode(env)).correlationID } };
  },
  // A Pix received: paid through the sandbox when it is there, else written as the money-in
  // area writes it.
  async getTransaction(env) {
    const qr = await newStaticQrCode(env, 15990);
    const paid = await env.client.post('/api/v1/sandbox/pay', {
      brCode: qr.brCode,
      payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
    });
    if (paid.status === 200) return { params: { id: paid.body.endToEndId } };
    if (!env.db) return {};
    const row = await env.db.transaction().execute((trx) =>
      insertTransaction(trx, {
        company_id: env.company.companyId,
        account_id: env.company.accountId,
        type: 'PIX_IN',
        value: 15990,
        end_to_end_id: `E18236120${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${randomUUID().replace(/-/g, '').slice(0, 11)}`,
        charge_id: null,
        payment_id: null,
        details: {
          payer: { name: 'Mariana Alves Costa', taxID: '52998224725' },
          pixQrCode: { name: 'Contrato', correlationID: qr.correlationID, identifier: qr.identifier },
        },
        created_at: new Date(),
      }),
    );
    return { params: { id: row.end_to_end_id! } };
  },
};
