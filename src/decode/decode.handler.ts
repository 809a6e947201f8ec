// HTTP in/out of BR Code decoding.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const decodeHandlers = {
  async decodeEmv(req, ctx) {
    callerOf(ctx);
    return { status: 200, body: await ctx.services.decode.decode(req.body.emv) };
  },
} satisfies Partial<PlatformHandlers>;
