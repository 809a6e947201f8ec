// Contract scenarios of webhooks. Every URL a scenario registers is a receiver on 127.0.0.1
// started here (the examples' URLs are public hosts: the server's background job would post
// real traffic to them if an event of the company happened later in the suite).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { recordEvent } from '../../../src/events/events.repository';
import { listCompanyKeys } from '../../../src/keys/keys.repository';
import type { ContractEnv, Scenario } from './types';

let receiverUrl: Promise<string> | undefined;

// One receiver for the whole run, answering 200 to everything; it does not keep the process alive.
function receiver(): Promise<string> {
  receiverUrl ??= new Promise((ok) => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    server.unref();
  });
  return receiverUrl;
}

async function localUrl(path: string): Promise<string> {
  return `${await receiver()}/${path}-${randomBytes(4).toString('hex')}`;
}

async function platformWebhook(env: ContractEnv, event = 'OPENPIX:CHARGE_COMPLETED'): Promise<string> {
  const res = await env.client.post(
    '/api/v1/webhook',
    { webhook: { name: 'contract', event, url: await localUrl('platform') } },
    { auth: env.company.appID },
  );
  if (res.status !== 200) throw new Error(`webhook scenario: ${res.status} ${res.text}`);
  return res.body.webhook.id;
}

async function companyKey(env: ContractEnv): Promise<string> {
  const [key] = await listCompanyKeys(env.db!, env.company.companyId);
  if (!key) throw new Error('webhook scenario: the company has no Pix key');
  return key.key;
}

async function putPix(env: ContractEnv, path: string): Promise<void> {
  const res = await env.client.put(`/pix/v2/${path}`, { webhookUrl: await localUrl('pix') }, { auth: env.bearer });
  if (res.status !== 200) throw new Error(`webhook scenario: PUT ${path} ${res.status} ${res.text}`);
}

// Each Pix API PUT example, with its URL pointed at the local receiver.
const localBody = async (example: unknown) => ({ ...(example as object), webhookUrl: await localUrl('pix') });

// The id of one of the company's Pix API webhooks (kind PIX, REC or COBR), as listed.
async function pixWebhookId(env: ContractEnv, kind: 'PIX' | 'REC' | 'COBR'): Promise<string> {
  const res = await env.client.get('/api/v1/pix-webhooks?limit=100', { auth: env.company.appID });
  const found = res.body.webhooks?.find((w: { kind: string }) => w.kind === kind);
  if (!found) throw new Error(`webhook scenario: no ${kind} webhook listed: ${res.text}`);
  return found.id;
}

// A delivery of a PIX_API:REC event to the company's /webhookrec, once the server's job (every
// second in this suite) has attempted it.
async function attemptedPixDelivery(env: ContractEnv): Promise<{ id: string; deliveryId: string }> {
  await putPix(env, 'webhookrec');
  const id = await pixWebhookId(env, 'REC');
  await env.db!.transaction().execute((trx) =>
    recordEvent(trx, {
      companyId: env.company.companyId,
      type: 'PIX_API:REC',
      payload: { rec: { idRec: `RR0000000020260316${randomBytes(6).toString('hex')}`, status: 'APROVADA' } } as never,
      at: new Date(),
    }),
  );
  for (let i = 0; i < 100; i++) {
    const res = await env.client.get(`/api/v1/pix-webhooks/${encodeURIComponent(id)}/deliveries`, {
      auth: env.company.appID,
    });
    const delivery = res.body.deliveries?.[0];
    if (delivery?.status === 'SUCCEEDED') return { id, deliveryId: delivery.id };
    await sleep(100);
  }
  throw new Error('webhook scenario: no Pix API delivery was made');
}

export const webhookScenarios: Record<string, Scenario> = {
  async createWebhook(_env, example) {
    const body = structuredClone(example) as { webhook: { url: string } };
    body.webhook.url = await localUrl('created');
    return { body };
  },
  // Both specs have a deleteWebhook: the platform's path takes {id}, the Pix API's {chave}.
  async deleteWebhook(env) {
    const chave = await companyKey(env);
    await putPix(env, `webhook/${encodeURIComponent(chave)}`);
    return { params: { id: await platformWebhook(env), chave } };
  },
  async listWebhookDeliveries(env) {
    return { params: { id: await platformWebhook(env) } };
  },
  // A new webhook's test event: its delivery is written with the webhook.
  async getWebhookDelivery(env) {
    const id = await platformWebhook(env, 'OPENPIX:MOVEMENT_CONFIRMED');
    const res = await env.client.get(`/api/v1/webhook/${encodeURIComponent(id)}/deliveries`, {
      auth: env.company.appID,
    });
    const delivery = res.body.deliveries?.[0];
    if (!delivery) throw new Error(`webhook scenario: the new webhook has no delivery: ${res.text}`);
    return { params: { id, deliveryId: delivery.id } };
  },
  async testWebhook(env) {
    return { params: { id: await platformWebhook(env, 'OPENPIX:MOVEMENT_CONFIRMED') } };
  },
  async listPixWebhookDeliveries(env) {
    await putPix(env, 'webhookcobr');
    return { params: { id: await pixWebhookId(env, 'COBR') } };
  },
  async getPixWebhookDelivery(env) {
    return { params: await attemptedPixDelivery(env) };
  },
  async redeliverPixWebhookDelivery(env) {
    return { params: await attemptedPixDelivery(env) };
  },
  // A delivery of an event recorded as the producing areas do; the server's job (every
  // second in this suite) makes and sends it.
  async redeliverWebhookDelivery(env) {
    const id = await platformWebhook(env, 'OPENPIX:MOVEMENT_CONFIRMED');
    await env.db!.transaction().execute((trx) =>
      recordEvent(trx, {
        companyId: env.company.companyId,
        type: 'OPENPIX:MOVEMENT_CONFIRMED',
        payload: { payment: { value: 100 }, transaction: null },
        at: new Date(),
      }),
    );
    for (let i = 0; i < 100; i++) {
      const res = await env.client.get(`/api/v1/webhook/${encodeURIComponent(id)}/deliveries`, {
        auth: env.company.appID,
      });
      // Once attempted (a delivery being attempted right now is not redelivered: 400).
      const delivery = res.body.deliveries?.[0];
      if (delivery?.status === 'SUCCEEDED') return { params: { id, deliveryId: delivery.id } };
      await sleep(100);
    }
    throw new Error('webhook scenario: no delivery was made');
  },
  async putWebhook(env, example) {
    return { params: { chave: await companyKey(env) }, body: await localBody(example) };
  },
  async getWebhook(env) {
    const chave = await companyKey(env);
    await putPix(env, `webhook/${encodeURIComponent(chave)}`);
    return { params: { chave } };
  },
  async putWebhookRec(_env, example) {
    return { body: await localBody(example) };
  },
  async getWebhookRec(env) {
    await putPix(env, 'webhookrec');
    return {};
  },
  async deleteWebhookRec(env) {
    await putPix(env, 'webhookrec');
    return {};
  },
  async putWebhookCobr(_env, example) {
    return { body: await localBody(example) };
  },
  async getWebhookCobr(env) {
    await putPix(env, 'webhookcobr');
    return {};
  },
  async deleteWebhookCobr(env) {
    await putPix(env, 'webhookcobr');
    return {};
  },
};
