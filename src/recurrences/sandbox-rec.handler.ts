// HTTP in/out of the sandbox's payer side of Pix Automático (mounted only in sandbox mode).
import type { PlatformHandlers } from '../../generated/platform.operations';

export const sandboxRecHandlers = {
  async sandboxAcceptRec(req, ctx) {
    return { status: 200, body: (await ctx.services.recurrences.sandbox.answer(req.params.idRec, true)) as never };
  },
  async sandboxRejectRec(req, ctx) {
    return { status: 200, body: (await ctx.services.recurrences.sandbox.answer(req.params.idRec, false)) as never };
  },
} satisfies Partial<PlatformHandlers>;
