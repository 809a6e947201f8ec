// HTTP in/out of the platform API's charges (/api/v1/charge).
import type { PlatformHandlers } from '../../../generated/platform.operations';
import { pageInfo, pageOf } from '../../lib/paging';
import { callerOf } from '../../http/principal-guard';

export const platformChargeHandlers = {
  async createCharge(req, ctx) {
    const created = await ctx.services.platformCharges.create(
      callerOf(ctx),
      req.body,
      req.query.return_existing === true,
    );
    return { status: 200, body: created };
  },
  async listCharges(req, ctx) {
    const page = pageOf(req.query);
    const { charges, total } = await ctx.services.platformCharges.list(callerOf(ctx), req.query, page);
    return { status: 200, body: { charges, pageInfo: pageInfo(page, total) } };
  },
  async getCharge(req, ctx) {
    return {
      status: 200,
      body: { charge: await ctx.services.platformCharges.get(callerOf(ctx), req.params.id) },
    };
  },
  async deleteCharge(req, ctx) {
    return { status: 200, body: await ctx.services.platformCharges.delete(callerOf(ctx), req.params.id) };
  },
  async updateChargeExpiry(req, ctx) {
    const charge = await ctx.services.platformCharges.updateExpiry(callerOf(ctx), req.params.id, req.body.expiresDate);
    return { status: 200, body: { charge } };
  },
} satisfies Partial<PlatformHandlers>;
