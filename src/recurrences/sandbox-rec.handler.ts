// HTTP in/out of the sandbox's payer side of Pix Automático (mounted only in sandbox mode).
import type { PlatformHandlers } from '../../generated/platform.operations';

export const sandboxRecHandlers = {
  async sandboxAcceptRec(req, ctx) {
    return { status: 200, body: await ctx.services.sandboxRecs.accept(req.params.idRec, req.body) };
  },
  async sandboxRejectRec(req, ctx) {
    return { status: 200, body: await ctx.services.sandboxRecs.reject(req.params.idRec) };
  },
} satisfies Partial<PlatformHandlers>;
