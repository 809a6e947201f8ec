// HTTP in/out of refunds (of a charge or of any received Pix) and the sandbox's outside payer (platform API).
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const pixInPlatformHandlers = {
  async listChargeRefunds(req, ctx) {
    const page = pageOf(req.query);
    const { refunds, total } = await ctx.services.pixin.listChargeRefunds(callerOf(ctx), req.params.id, page);
    return { status: 200, body: { refunds, pageInfo: pageInfo(page, total) } };
  },
  async createChargeRefund(req, ctx) {
    return {
      status: 200,
      body: { refund: await ctx.services.pixin.createChargeRefund(callerOf(ctx), req.params.id, req.body) },
    };
  },
  async listRefunds(req, ctx) {
    const page = pageOf(req.query);
    const { refunds, total } = await ctx.services.pixin.listRefunds(callerOf(ctx), req.query, page);
    return { status: 200, body: { refunds, pageInfo: pageInfo(page, total) } };
  },
  async getRefund(req, ctx) {
    return {
      status: 200,
      body: { pixTransactionRefund: await ctx.services.pixin.getRefund(callerOf(ctx), req.params.id) },
    };
  },
  async createRefund(req, ctx) {
    return { status: 200, body: { refund: await ctx.services.pixin.createRefund(callerOf(ctx), req.body) } };
  },
  async sandboxPay(req, ctx) {
    return { status: 200, body: await ctx.services.pixin.sandbox.pay(req.body) };
  },
  async sandboxPixIn(req, ctx) {
    return { status: 200, body: await ctx.services.pixin.sandbox.pixIn(req.body) };
  },
} satisfies Partial<PlatformHandlers>;
