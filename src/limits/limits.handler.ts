// HTTP in/out of account limits.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const limitsHandlers = {
  async getAccountLimits(req, ctx) {
    return { status: 200, body: { limits: await ctx.services.limits.view(callerOf(ctx), req.params.accountId) } };
  },
} satisfies Partial<PlatformHandlers>;
