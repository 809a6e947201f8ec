// HTTP in/out of subscriptions.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const subscriptionHandlers = {
  async createSubscription(req, ctx) {
    return { status: 200, body: { subscription: await ctx.services.subscriptions.create(callerOf(ctx), req.body) } };
  },
  async getSubscription(req, ctx) {
    return { status: 200, body: { subscription: await ctx.services.subscriptions.get(callerOf(ctx), req.params.id) } };
  },
} satisfies Partial<PlatformHandlers>;
