// HTTP in/out of batches of due-date charges (lotecobv).
import type { PixHandlers } from '../../../generated/pix.operations';
import { callerOf } from '../../http/principal-guard';

export const loteCobvHandlers = {
  async putLoteCobv(req, ctx) {
    await ctx.services.chargeLotes.put(callerOf(ctx), req.params.id, req.body);
    return { status: 202, body: undefined };
  },
  async reviseLoteCobv(req, ctx) {
    await ctx.services.chargeLotes.revise(callerOf(ctx), req.params.id, req.body);
    return { status: 202, body: undefined };
  },
  async getLoteCobv(req, ctx) {
    return { status: 200, body: await ctx.services.chargeLotes.get(callerOf(ctx), req.params.id) };
  },
  async listLoteCobvs(req, ctx) {
    return { status: 200, body: await ctx.services.chargeLotes.list(callerOf(ctx), req.query) };
  },
} satisfies Partial<PixHandlers>;
