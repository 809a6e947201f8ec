// HTTP in/out of subscriptions and their installments.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { pageOf } from '../lib/paging';

export const subscriptionHandlers = {
  async createSubscription(req, ctx) {
    return { status: 200, body: { subscription: await ctx.services.subscriptions.create(callerOf(ctx), req.body) } };
  },
  async getSubscription(req, ctx) {
    return { status: 200, body: { subscription: await ctx.services.subscriptions.get(callerOf(ctx), req.params.id) } };
  },
  async listSubscriptions(req, ctx) {
    return { status: 200, body: await ctx.services.subscriptions.list(callerOf(ctx), pageOf(req.query ?? {})) };
  },
  async cancelSubscription(req, ctx) {
    const subscription = await ctx.services.subscriptions.cancel(callerOf(ctx), req.params.id);
    return { status: 200, body: { subscription } };
  },
  async updateSubscriptionValue(req, ctx) {
    const subscription = await ctx.services.subscriptions.changeValue(callerOf(ctx), req.params.id, req.body.value);
    return { status: 200, body: { subscription } };
  },
  async listSubscriptionInstallments(req, ctx) {
    const page = pageOf(req.query ?? {});
    return { status: 200, body: await ctx.services.installments.list(callerOf(ctx), req.params.id, page) };
  },
  async getInstallment(req, ctx) {
    return { status: 200, body: { installment: await ctx.services.installments.get(callerOf(ctx), req.params.id) } };
  },
  async createInstallmentCobr(req, ctx) {
    const installment = await ctx.services.installments.createCobr(callerOf(ctx), req.params.id, req.body ?? {});
    return { status: 200, body: { installment } };
  },
  async retryInstallmentCobr(req, ctx) {
    const installment = await ctx.services.installments.retryCobr(callerOf(ctx), req.params.id, req.body ?? {});
    return { status: 200, body: { installment } };
  },
} satisfies Partial<PlatformHandlers>;
