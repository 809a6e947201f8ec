// HTTP in/out of the request log.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const requestLogHandlers = {
  async listRequestLogs(req, ctx) {
    return { status: 200, body: await ctx.services.requestLogs.list(callerOf(ctx).companyId, req.query) };
  },
  async getRequestLog(req, ctx) {
    const requestLog = await ctx.services.requestLogs.get(callerOf(ctx).companyId, req.params.requestId);
    return { status: 200, body: { requestLog } };
  },
} satisfies Partial<PlatformHandlers>;
