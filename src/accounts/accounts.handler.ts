// HTTP in/out of accounts (reads, duplicate, close, withdraw), account registers and the company.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const accountHandlers = {
  async getAccount(req, ctx) {
    return { status: 200, body: { account: await ctx.services.accounts.get(callerOf(ctx), req.params.accountId) } };
  },
  async listAccounts(req, ctx) {
    const page = pageOf(req.query);
    const { accounts, total } = await ctx.services.accounts.list(callerOf(ctx), page, req.query.email);
    return { status: 200, body: { accounts, pageInfo: pageInfo(page, total) } };
  },
  async createAccount(req, ctx) {
    return { status: 200, body: { account: await ctx.services.accounts.create(callerOf(ctx), req.body?.holderEmail) } };
  },
  async deleteAccount(req, ctx) {
    return { status: 200, body: await ctx.services.accounts.close(callerOf(ctx), req.params.accountId) };
  },
  async withdrawFromAccount(req, ctx) {
    return {
      status: 200,
      body: { withdraw: await ctx.services.accounts.withdraw(callerOf(ctx), req.params.accountId, req.body.value) },
    };
  },
  async getAccountRegister(req, ctx) {
    return { status: 200, body: await ctx.services.accountRegisters.get(callerOf(ctx), req.query.correlationID) };
  },
  async getAccountRegisterById(req, ctx) {
    return { status: 200, body: await ctx.services.accountRegisters.getByIdOrTaxId(callerOf(ctx), req.params.id) };
  },
  async deleteAccountRegister(req, ctx) {
    return { status: 200, body: await ctx.services.accountRegisters.remove(callerOf(ctx), req.params.id) };
  },
  async getCompany(_req, ctx) {
    return { status: 200, body: { company: await ctx.services.accounts.company(callerOf(ctx)) } };
  },
} satisfies Partial<PlatformHandlers>;
