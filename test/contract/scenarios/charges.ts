// Contract scenarios of charges (platform charges, cob, cobv, lotecobv, loc, payloads, QR
// images). The examples' keys belong to no company here: the company's default key is used;
// their dates are moved into the future, keeping their order; their txids and location ids
// are replaced by fresh ones so that every example can be replayed.
import { randomUUID } from 'node:crypto';
import { findDefaultKey } from '../../../src/keys/keys.repository';
import { addCalendarDays, daysBetween } from '../../../src/lib/business-days';
import { newTxid } from '../../../src/lib/ids';
import type { ContractEnv, Scenario } from './types';

// The examples' charges were made on this day.
const EXAMPLES_DAY = '2026-03-20';

async function defaultKey(env: ContractEnv): Promise<string> {
  if (env.db) {
    const key = await findDefaultKey(env.db, env.company.companyId);
    if (key) return key.key;
  }
  throw new Error('charges scenario: the company has no default key');
}

async function today(env: ContractEnv): Promise<string> {
  const res = await env.client.get('/api/v1/sandbox/clock');
  return res.status === 200 ? String(res.body.now).slice(0, 10) : new Date().toISOString().slice(0, 10);
}

// The example with its dates moved past today (same distances between them), its key
// replaced by the company's and its location replaced by a fresh one of the company.
async function adapt(env: ContractEnv, example: unknown, tipoCob: 'cob' | 'cobv'): Promise<Record<string, unknown>> {
  const shift = daysBetween(EXAMPLES_DAY, await today(env)) + 1;
  const key = await defaultKey(env);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return addCalendarDays(v, shift);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const body = walk(example ?? {}) as Record<string, unknown>;
  if (body.chave !== undefined) body.chave = key;
  if (body.loc !== undefined) body.loc = { id: await newLoc(env, tipoCob) };
  if (Array.isArray(body.cobsv))
    body.cobsv = (body.cobsv as Array<Record<string, unknown>>).map((c) => ({
      ...c,
      ...(c.chave !== undefined ? { chave: key } : {}),
    }));
  return body;
}

async function newLoc(env: ContractEnv, tipoCob: 'cob' | 'cobv'): Promise<number> {
  const res = await env.client.post('/pix/v2/loc', { tipoCob }, { auth: env.bearer });
  if (res.status !== 201) throw new Error(`loc scenario: ${res.status} ${res.text}`);
  return res.body.id;
}

async function newCharge(env: ContractEnv, body: Record<string, unknown> = {}) {
  const res = await env.client.post(
    '/api/v1/charge',
    { correlationID: `contract-${randomUUID()}`, value: 15990, ...body },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`charge scenario: ${res.status} ${res.text}`);
  return res.body.charge;
}

async function newCob(env: ContractEnv) {
  const res = await env.client.put(
    `/pix/v2/cob/${newTxid()}`,
    { calendario: { expiracao: 3600 }, valor: { original: '45.90' }, chave: await defaultKey(env) },
    { auth: env.bearer },
  );
  if (res.status !== 201) throw new Error(`cob scenario: ${res.status} ${res.text}`);
  return res.body;
}

async function newCobv(env: ContractEnv) {
  const body = await adapt(
    env,
    {
      calendario: { dataDeVencimento: '2026-04-10', validadeAposVencimento: 30 },
      devedor: { cpf: '70214539814', nome: 'Joao Pedro Almeida' },
      valor: { original: '1450.00' },
      chave: 'x',
    },
    'cobv',
  );
  const res = await env.client.put(`/pix/v2/cobv/${newTxid()}`, body, { auth: env.bearer });
  if (res.status !== 201) throw new Error(`cobv scenario: ${res.status} ${res.text}`);
  return res.body;
}

// A random CPF with valid check digits.
function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  const digit = (ds: number[]) => ((ds.reduce((sum, d, i) => sum + d * (ds.length + 1 - i), 0) * 10) % 11) % 10;
  const first = digit(base);
  return [...base, first, digit([...base, first])].join('');
}

let batchId = Math.floor(Date.now() / 1000) % 1_000_000;

export const chargesScenarios: Record<string, Scenario> = {
  // The examples' charges are made with their correlationIDs (other areas' examples read
  // them, e.g. pedido-2026-000184); return_existing lets the suite replay them more than once.
  // Their customers get another tax id: the customer create example uses theirs.
  async createCharge(_env, example) {
    const body = example as { customer?: Record<string, unknown> };
    const customer = body.customer?.taxID !== undefined ? { ...body.customer, taxID: randomCpf() } : body.customer;
    return { query: { return_existing: 'true' }, body: { ...body, ...(customer ? { customer } : {}) } };
  },
  async getCharge(env) {
    return { params: { id: (await newCharge(env)).correlationID } };
  },
  async deleteCharge(env) {
    return { params: { id: (await newCharge(env)).correlationID } };
  },
  async updateChargeExpiry(env) {
    const charge = await newCharge(env);
    return {
      params: { id: charge.correlationID },
      body: { expiresDate: new Date(Date.parse(charge.createdAt) + 2 * 86400_000).toISOString() },
    };
  },
  async getChargeQrImage(env) {
    return { params: { id: (await newCharge(env)).paymentLinkID } };
  },
  async getPaymentLinkPage(env) {
    return { params: { paymentLinkID: (await newCharge(env)).paymentLinkID } };
  },
  async getPaymentLinkStatus(env) {
    return { params: { paymentLinkID: (await newCharge(env)).paymentLinkID } };
  },
  async getQrCodeBase64(env) {
    return { params: { id: (await newCharge(env)).paymentLinkID } };
  },
  async putCob(env, example) {
    return { params: { txid: newTxid() }, body: await adapt(env, example, 'cob') };
  },
  async createCob(env, example) {
    return { body: await adapt(env, example, 'cob') };
  },
  async getCob(env) {
    return { params: { txid: (await newCob(env)).txid } };
  },
  async reviseCob(env, example) {
    return { params: { txid: (await newCob(env)).txid }, body: await adapt(env, example, 'cob') };
  },
  async putCobv(env, example) {
    return { params: { txid: newTxid() }, body: await adapt(env, example, 'cobv') };
  },
  async getCobv(env) {
    return { params: { txid: (await newCobv(env)).txid } };
  },
  async reviseCobv(env, example) {
    return { params: { txid: (await newCobv(env)).txid }, body: await adapt(env, example, 'cobv') };
  },
  async putLoteCobv(env, example) {
    const body = await adapt(env, example, 'cobv');
    body.cobsv = (body.cobsv as Array<Record<string, unknown>>).map((c) => ({ ...c, txid: newTxid() }));
    return { params: { id: String(++batchId) }, body };
  },
  async reviseLoteCobv(env, example) {
    const id = String(++batchId);
    const revision = (example as { cobsv: Array<Record<string, unknown>> }).cobsv;
    const txids = revision.map(() => newTxid());
    const items = await adapt(
      env,
      {
        cobsv: txids.map((txid) => ({
          txid,
          calendario: { dataDeVencimento: '2026-04-10' },
          devedor: { cpf: '70214539814', nome: 'Joao' },
          valor: { original: '1450.00' },
          chave: 'x',
        })),
      },
      'cobv',
    );
    const res = await env.client.put(
      `/pix/v2/lotecobv/${id}`,
      { descricao: 'Contrato', ...items },
      { auth: env.bearer },
    );
    if (res.status !== 202) throw new Error(`lotecobv scenario: ${res.status} ${res.text}`);
    const adapted = await adapt(env, example, 'cobv');
    adapted.cobsv = (adapted.cobsv as Array<Record<string, unknown>>).map((c, i) => ({ ...c, txid: txids[i] }));
    return { params: { id }, body: adapted };
  },
  async getLoteCobv(env) {
    const id = String(++batchId);
    const items = await adapt(
      env,
      {
        cobsv: [
          {
            txid: newTxid(),
            calendario: { dataDeVencimento: '2026-04-10' },
            devedor: { cpf: '70214539814', nome: 'Joao' },
            valor: { original: '1450.00' },
            chave: 'x',
          },
        ],
      },
      'cobv',
    );
    const res = await env.client.put(
      `/pix/v2/lotecobv/${id}`,
      { descricao: 'Contrato', ...items },
      { auth: env.bearer },
    );
    if (res.status !== 202) throw new Error(`lotecobv scenario: ${res.status} ${res.text}`);
    return { params: { id } };
  },
  async getLoc(env) {
    return { params: { id: String((await newCob(env)).loc.id) } };
  },
  async unlinkLocTxid(env) {
    return { params: { id: String((await newCob(env)).loc.id) } };
  },
  async getCobPayload(env) {
    return {
      params: {
        pixUrlAccessToken: String((await newCob(env)).location)
          .split('/')
          .pop()!,
      },
    };
  },
  async getCobvPayload(env) {
    return {
      params: {
        pixUrlAccessToken: String((await newCobv(env)).location)
          .split('/')
          .pop()!,
      },
    };
  },
};
