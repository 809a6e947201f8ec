// HTTP in/out of webhooks: the platform API's /api/v1/webhook and the Pix API's
// /pix/v2/webhook, /webhookrec and /webhookcobr.
import type { PixHandlers } from '../../generated/pix.operations';
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const SECRET_HEADER = 'X-Pixgate-Webhook-Secret';

export const webhookHandlers = {
  async createWebhook(req, ctx) {
    const webhook = await ctx.services.webhooks.create(callerOf(ctx).companyId, req.body.webhook);
    return { status: 200, body: { webhook } };
  },
  async listWebhooks(req, ctx) {
    const page = pageOf(req.query);
    const { webhooks, total } = await ctx.services.webhooks.list(callerOf(ctx).companyId, req.query.url, page);
    return { status: 200, body: { webhooks, pageInfo: pageInfo(page, total) } };
  },
  async deleteWebhook(req, ctx) {
    await ctx.services.webhooks.remove(callerOf(ctx).companyId, req.params.id);
    return { status: 200, body: { status: 'OK', id: req.params.id } };
  },
  // Server-Sent Events until the client leaves, maxSeconds pass or the server stops
  // (event-stream.service.ts). Connection: close, so the socket ends with the stream.
  async streamEvents(req, ctx) {
    const body = await ctx.services.eventStreams.start({
      companyId: callerOf(ctx).companyId,
      ...(req.query.type !== undefined ? { types: req.query.type } : {}),
      ...(req.query.maxSeconds !== undefined ? { maxSeconds: req.query.maxSeconds } : {}),
      ...(req.headers['last-event-id'] !== undefined ? { lastEventId: req.headers['last-event-id'] } : {}),
    });
    return {
      status: 200,
      body,
      contentType: 'text/event-stream; charset=utf-8',
      headers: { 'Cache-Control': 'no-cache, no-store', Connection: 'close', 'X-Accel-Buffering': 'no' },
    };
  },
  async listWebhookEvents(_req, ctx) {
    return { status: 200, body: { events: ctx.services.webhooks.events().map((name) => ({ name })) } };
  },
  async listWebhookIps(_req, ctx) {
    return { status: 200, body: { ips: ctx.services.webhooks.sourceIps() } };
  },
  async getWebhookPublicKeys(_req, ctx) {
    return { status: 200, body: await ctx.services.webhooks.publicKeys() };
  },
  async listWebhookDeliveries(req, ctx) {
    const page = pageOf(req.query);
    const { deliveries, total } = await ctx.services.webhooks.deliveries(callerOf(ctx).companyId, req.params.id, page);
    return { status: 200, body: { deliveries, pageInfo: pageInfo(page, total) } };
  },
  async getWebhookDelivery(req, ctx) {
    const { id, deliveryId } = req.params;
    return {
      status: 200,
      body: { delivery: await ctx.services.webhooks.delivery(callerOf(ctx).companyId, id, deliveryId) },
    };
  },
  async redeliverWebhookDelivery(req, ctx) {
    const { id, deliveryId } = req.params;
    return {
      status: 200,
      body: { delivery: await ctx.services.webhooks.redeliver(callerOf(ctx).companyId, id, deliveryId) },
    };
  },
  async testWebhook(req, ctx) {
    return { status: 200, body: await ctx.services.webhooks.test(callerOf(ctx).companyId, req.params.id) };
  },
  async listPixWebhooks(req, ctx) {
    const page = pageOf(req.query);
    const { webhooks, total } = await ctx.services.webhooks.listPixWebhooks(callerOf(ctx).companyId, page);
    return { status: 200, body: { webhooks, pageInfo: pageInfo(page, total) } };
  },
  async listPixWebhookDeliveries(req, ctx) {
    const page = pageOf(req.query);
    const companyId = callerOf(ctx).companyId;
    const { deliveries, total } = await ctx.services.webhooks.pixDeliveries(companyId, req.params.id, page);
    return { status: 200, body: { deliveries, pageInfo: pageInfo(page, total) } };
  },
  async getPixWebhookDelivery(req, ctx) {
    const { id, deliveryId } = req.params;
    return {
      status: 200,
      body: { delivery: await ctx.services.webhooks.pixDelivery(callerOf(ctx).companyId, id, deliveryId) },
    };
  },
  async redeliverPixWebhookDelivery(req, ctx) {
    const { id, deliveryId } = req.params;
    return {
      status: 200,
      body: { delivery: await ctx.services.webhooks.redeliverPix(callerOf(ctx).companyId, id, deliveryId) },
    };
  },
} satisfies Partial<PlatformHandlers>;

export const pixWebhookHandlers = {
  async putWebhook(req, ctx) {
    const secret = await ctx.services.pixWebhooks.putKey(callerOf(ctx), req.params.chave, req.body.webhookUrl);
    return { status: 200, body: undefined, headers: { [SECRET_HEADER]: secret } };
  },
  async getWebhook(req, ctx) {
    return { status: 200, body: await ctx.services.pixWebhooks.getKey(callerOf(ctx), req.params.chave) };
  },
  async deleteWebhook(req, ctx) {
    await ctx.services.pixWebhooks.deleteKey(callerOf(ctx), req.params.chave);
    return { status: 204, body: undefined };
  },
  async listWebhooks(req, ctx) {
    return { status: 200, body: await ctx.services.pixWebhooks.listKeys(callerOf(ctx), req.query) };
  },
  async putWebhookRec(req, ctx) {
    const secret = await ctx.services.pixWebhooks.putCompany(callerOf(ctx), 'rec', req.body.webhookUrl);
    return { status: 200, body: undefined, headers: { [SECRET_HEADER]: secret } };
  },
  async getWebhookRec(_req, ctx) {
    return { status: 200, body: await ctx.services.pixWebhooks.getCompany(callerOf(ctx), 'rec') };
  },
  async deleteWebhookRec(_req, ctx) {
    await ctx.services.pixWebhooks.deleteCompany(callerOf(ctx), 'rec');
    return { status: 204, body: undefined };
  },
  async putWebhookCobr(req, ctx) {
    const secret = await ctx.services.pixWebhooks.putCompany(callerOf(ctx), 'cobr', req.body.webhookUrl);
    return { status: 200, body: undefined, headers: { [SECRET_HEADER]: secret } };
  },
  async getWebhookCobr(_req, ctx) {
    return { status: 200, body: await ctx.services.pixWebhooks.getCompany(callerOf(ctx), 'cobr') };
  },
  async deleteWebhookCobr(_req, ctx) {
    await ctx.services.pixWebhooks.deleteCompany(callerOf(ctx), 'cobr');
    return { status: 204, body: undefined };
  },
} satisfies Partial<PixHandlers>;
