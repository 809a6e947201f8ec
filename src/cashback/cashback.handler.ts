// HTTP in/out of exclusive (fidelity) cashbacks.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const cashbackHandlers = {
  async getCashbackBalance(req, ctx) {
    return { status: 200, body: await ctx.services.cashback.balance(callerOf(ctx), req.params.taxID) };
  },
  async getOrCreateCashback(req, ctx) {
    const { created, cashback, message } = await ctx.services.cashback.getOrCreate(callerOf(ctx), req.body);
    return created ? { status: 201, body: { cashback, message } } : { status: 200, body: { cashback, message } };
  },
} satisfies Partial<PlatformHandlers>;
