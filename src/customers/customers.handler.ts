// HTTP in/out of customers.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const customerHandlers = {
  async createCustomer(req, ctx) {
    return { status: 200, body: { customer: await ctx.services.customers.create(callerOf(ctx), req.body) } };
  },
  async getCustomer(req, ctx) {
    return { status: 200, body: { customer: await ctx.services.customers.get(callerOf(ctx), req.params.id) } };
  },
  async listCustomers(req, ctx) {
    const page = pageOf(req.query);
    const { customers, total } = await ctx.services.customers.list(callerOf(ctx), page);
    return { status: 200, body: { customers, pageInfo: pageInfo(page, total) } };
  },
  async updateCustomer(req, ctx) {
    return {
      status: 200,
      body: { customer: await ctx.services.customers.update(callerOf(ctx), req.params.id, req.body) },
    };
  },
} satisfies Partial<PlatformHandlers>;
