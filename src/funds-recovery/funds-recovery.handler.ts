// HTTP in/out of funds recoveries (MED) and the sandbox's analysis moves.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const fundsRecoveryHandlers = {
  async createFundsRecovery(req, ctx) {
    return { status: 201, body: { fundsRecovery: await ctx.services.fundsRecovery.open(callerOf(ctx), req.body) } };
  },
  async getFundsRecovery(req, ctx) {
    return { status: 200, body: { fundsRecovery: await ctx.services.fundsRecovery.get(callerOf(ctx), req.params.id) } };
  },
  async cancelFundsRecovery(req, ctx) {
    return {
      status: 200,
      body: { fundsRecovery: await ctx.services.fundsRecovery.cancel(callerOf(ctx), req.params.id) },
    };
  },
  async sandboxAdvanceFundsRecovery(req, ctx) {
    const { status, analysisResult } = req.body;
    return {
      status: 200,
      body: { fundsRecovery: await ctx.services.fundsRecovery.advance(req.params.id, status, analysisResult) },
    };
  },
} satisfies Partial<PlatformHandlers>;
