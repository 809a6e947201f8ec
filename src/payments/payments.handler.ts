// HTTP in/out of outgoing payments and boleto validation.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const paymentHandlers = {
  async listPayments(req, ctx) {
    const page = pageOf(req.query);
    const { payments, total } = await ctx.services.payments.list(callerOf(ctx), page);
    return { status: 200, body: { payments, pageInfo: pageInfo(page, total) } };
  },
  async createPayment(req, ctx) {
    return { status: 200, body: await ctx.services.payments.create(callerOf(ctx), req.body) };
  },
  async getPayment(req, ctx) {
    return { status: 200, body: await ctx.services.payments.get(callerOf(ctx), req.params.id) };
  },
  async approvePayment(req, ctx) {
    return { status: 200, body: await ctx.services.payments.approve(callerOf(ctx), req.body.correlationID) };
  },
  async validateBoleto(req, ctx) {
    return {
      status: 200,
      body: { boleto: await ctx.services.payments.validateBoleto(callerOf(ctx), req.body.barcode) },
    };
  },
} satisfies Partial<PlatformHandlers>;
