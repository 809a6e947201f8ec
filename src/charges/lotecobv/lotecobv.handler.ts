// HTTP in/out of batches of due-date charges (lotecobv).
import type { PixHandlers } from '../../../generated/pix.operations';
import { callerOf } from '../../http/principal-guard';
import type { LoteInput } from './lotecobv.service';

export const loteCobvHandlers = {
  async putLoteCobv(req, ctx) {
    await ctx.services.charges.lotes.put(callerOf(ctx), req.params.id, req.body as LoteInput);
    return { status: 202, body: undefined };
  },
  async reviseLoteCobv(req, ctx) {
    await ctx.services.charges.lotes.revise(callerOf(ctx), req.params.id, req.body as LoteInput);
    return { status: 202, body: undefined };
  },
  async getLoteCobv(req, ctx) {
    return { status: 200, body: (await ctx.services.charges.lotes.get(callerOf(ctx), req.params.id)) as never };
  },
  async listLoteCobvs(req, ctx) {
    return { status: 200, body: (await ctx.services.charges.lotes.list(callerOf(ctx), req.query)) as never };
  },
} satisfies Partial<PixHandlers>;
