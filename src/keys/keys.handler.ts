// HTTP in/out of Pix keys, key lookups and the lookup token bucket.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const pixKeyHandlers = {
  async listPixKeys(req, ctx) {
    const page = pageOf(req.query);
    const { pixKeys, account, total } = await ctx.services.pixKeys.list(callerOf(ctx), page);
    return { status: 200, body: { pixKeys, account, pageInfo: pageInfo(page, total) } };
  },
  async createPixKey(req, ctx) {
    return { status: 201, body: await ctx.services.pixKeys.create(callerOf(ctx), req.body) };
  },
  async deletePixKey(req, ctx) {
    await ctx.services.pixKeys.remove(callerOf(ctx), req.params.pixKey);
    return { status: 204, body: undefined };
  },
  async setDefaultPixKey(req, ctx) {
    return { status: 200, body: await ctx.services.pixKeys.setDefault(callerOf(ctx), req.params.pixKey) };
  },
  async checkPixKey(req, ctx) {
    return { status: 200, body: await ctx.services.keyLookups.check(callerOf(ctx), req.params.pixKey) };
  },
  async checkPixKeyByBody(req, ctx) {
    return { status: 200, body: await ctx.services.keyLookups.check(callerOf(ctx), req.body.pixKey) };
  },
  async getPixKeyTokens(_req, ctx) {
    return { status: 200, body: await ctx.services.keyLookups.tokens(callerOf(ctx)) };
  },
  async listPixKeyTokenLogs(req, ctx) {
    const page = pageOf(req.query);
    const { logs, total } = await ctx.services.keyLookups.logs(callerOf(ctx), req.query.companyBankAccount, page);
    return { status: 200, body: { logs, pageInfo: pageInfo(page, total) } };
  },
} satisfies Partial<PlatformHandlers>;
