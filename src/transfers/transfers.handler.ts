// HTTP in/out of transfers and the account statement.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { pageOf, periodOf } from '../lib/paging';

export const transferHandlers = {
  async createTransfer(req, ctx) {
    return { status: 200, body: { transaction: await ctx.services.transfers.create(callerOf(ctx), req.body) } };
  },
  async getStatement(req, ctx) {
    const entries = await ctx.services.statement.ofAccount(callerOf(ctx), periodOf(req.query), pageOf(req.query));
    return { status: 200, body: entries };
  },
} satisfies Partial<PlatformHandlers>;
