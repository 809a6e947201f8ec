// HTTP in/out of the transaction list.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const transactionHandlers = {
  async listTransactions(req, ctx) {
    const page = pageOf(req.query);
    const { start, end, type } = req.query;
    const { transactions, total } = await ctx.services.transactions.list(
      callerOf(ctx),
      { ...(start ? { start } : {}), ...(end ? { end } : {}), ...(type ? { type } : {}) },
      page,
    );
    return { status: 200, body: { transactions, pageInfo: pageInfo(page, total) } };
  },
  async getTransaction(req, ctx) {
    return { status: 200, body: { transaction: await ctx.services.transactions.get(callerOf(ctx), req.params.id) } };
  },
} satisfies Partial<PlatformHandlers>;
