// HTTP in/out of subaccounts.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { pageInfo, pageOf, periodOf } from '../lib/paging';

export const subAccountHandlers = {
  async listSubAccounts(req, ctx) {
    const page = pageOf(req.query);
    const { subAccounts, total } = await ctx.services.subaccounts.list(callerOf(ctx), page);
    return { status: 200, body: { subAccounts, pageInfo: pageInfo(page, total) } };
  },
  async createSubAccount(req, ctx) {
    return { status: 200, body: { SubAccount: await ctx.services.subaccounts.create(callerOf(ctx), req.body) } };
  },
  async getSubAccount(req, ctx) {
    return { status: 200, body: { SubAccount: await ctx.services.subaccounts.get(callerOf(ctx), req.params.id) } };
  },
  async deleteSubAccount(req, ctx) {
    return { status: 200, body: await ctx.services.subaccounts.remove(callerOf(ctx), req.params.id) };
  },
  async withdrawFromSubAccount(req, ctx) {
    const withdraw = await ctx.services.subaccounts.withdraw(callerOf(ctx), req.params.id, req.body?.value);
    return { status: 200, body: { withdraw } };
  },
  async debitSubAccount(req, ctx) {
    return { status: 200, body: await ctx.services.subaccounts.move(callerOf(ctx), req.params.id, 'debit', req.body) };
  },
  async creditSubAccount(req, ctx) {
    return { status: 200, body: await ctx.services.subaccounts.move(callerOf(ctx), req.params.id, 'credit', req.body) };
  },
  async transferBetweenSubAccounts(req, ctx) {
    return { status: 200, body: await ctx.services.subaccounts.transfer(callerOf(ctx), req.body) };
  },
  async getSubAccountStatement(req, ctx) {
    const entries = await ctx.services.subaccounts.statement(
      callerOf(ctx),
      req.params.id,
      periodOf(req.query),
      pageOf(req.query),
    );
    return { status: 200, body: entries };
  },
} satisfies Partial<PlatformHandlers>;
