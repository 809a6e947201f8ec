// HTTP in/out of the standard's payload locations (loc).
import type { PixHandlers } from '../../../generated/pix.operations';
import { callerOf } from '../../http/principal-guard';

export const locHandlers = {
  async createLoc(req, ctx) {
    const loc = await ctx.services.chargeLocs.create(callerOf(ctx), req.body.tipoCob);
    return { status: 201, body: loc, headers: { Location: loc.location } };
  },
  async listLocs(req, ctx) {
    return { status: 200, body: await ctx.services.chargeLocs.list(callerOf(ctx), req.query) };
  },
  async getLoc(req, ctx) {
    return { status: 200, body: await ctx.services.chargeLocs.get(callerOf(ctx), req.params.id) };
  },
  async unlinkLocTxid(req, ctx) {
    return { status: 200, body: await ctx.services.chargeLocs.unlink(callerOf(ctx), req.params.id) };
  },
} satisfies Partial<PixHandlers>;
