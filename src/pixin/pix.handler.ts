// HTTP in/out of received Pix and their devolutions (Pix API).
import type { PixHandlers } from '../../generated/pix.operations';
import { callerOf } from '../http/principal-guard';

export const pixInPixHandlers = {
  async getPix(req, ctx) {
    return { status: 200, body: await ctx.services.pixin.getPix(callerOf(ctx), req.params.e2eid) };
  },
  async listPix(req, ctx) {
    return { status: 200, body: await ctx.services.pixin.listPix(callerOf(ctx), req.query) };
  },
  async putDevolucao(req, ctx) {
    return {
      status: 201,
      body: await ctx.services.pixin.putDevolucao(callerOf(ctx), req.params.e2eid, req.params.id, req.body),
    };
  },
  async getDevolucao(req, ctx) {
    return { status: 200, body: await ctx.services.pixin.getDevolucao(callerOf(ctx), req.params.e2eid, req.params.id) };
  },
} satisfies Partial<PixHandlers>;
