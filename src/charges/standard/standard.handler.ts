// HTTP in/out of the standard's immediate (cob) and due-date (cobv) charges.
import type { PixHandlers } from '../../../generated/pix.operations';
import { callerOf } from '../../http/principal-guard';

export const standardChargeHandlers = {
  async putCob(req, ctx) {
    const view = await ctx.services.standardCharges.put(callerOf(ctx), 'cob', req.params.txid, req.body);
    return { status: 201, body: view };
  },
  async createCob(req, ctx) {
    const view = await ctx.services.standardCharges.create(callerOf(ctx), req.body);
    return { status: 201, body: view };
  },
  async reviseCob(req, ctx) {
    const view = await ctx.services.standardCharges.revise(callerOf(ctx), 'cob', req.params.txid, req.body);
    return { status: 200, body: view };
  },
  async getCob(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.standardCharges.get(callerOf(ctx), 'cob', req.params.txid, req.query.revisao),
    };
  },
  async listCobs(req, ctx) {
    return { status: 200, body: await ctx.services.standardCharges.list(callerOf(ctx), 'cob', req.query) };
  },
  async putCobv(req, ctx) {
    const view = await ctx.services.standardCharges.put(callerOf(ctx), 'cobv', req.params.txid, req.body);
    return { status: 201, body: view };
  },
  async reviseCobv(req, ctx) {
    const view = await ctx.services.standardCharges.revise(callerOf(ctx), 'cobv', req.params.txid, req.body);
    return { status: 200, body: view };
  },
  async getCobv(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.standardCharges.get(callerOf(ctx), 'cobv', req.params.txid, req.query.revisao),
    };
  },
  async listCobvs(req, ctx) {
    return { status: 200, body: await ctx.services.standardCharges.list(callerOf(ctx), 'cobv', req.query) };
  },
} satisfies Partial<PixHandlers>;
