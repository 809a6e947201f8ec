// HTTP in/out of disputes and the sandbox's payer side (open, resolve).
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const disputeHandlers = {
  async getDispute(req, ctx) {
    return { status: 200, body: { dispute: await ctx.services.disputes.get(callerOf(ctx), req.params.id) } };
  },
  async listDisputes(req, ctx) {
    const page = pageOf(req.query);
    const { disputes, total } = await ctx.services.disputes.list(callerOf(ctx), req.query, page);
    return { status: 200, body: { disputes, pageInfo: pageInfo(page, total) } };
  },
  async addDisputeEvidence(req, ctx) {
    return {
      status: 200,
      body: { documents: await ctx.services.disputes.addEvidence(callerOf(ctx), req.params.id, req.body.documents) },
    };
  },
  async sandboxOpenDispute(req, ctx) {
    return { status: 201, body: { dispute: await ctx.services.disputes.open(req.body) } };
  },
  async sandboxResolveDispute(req, ctx) {
    return { status: 200, body: { dispute: await ctx.services.disputes.resolve(req.params.id, req.body.outcome) } };
  },
} satisfies Partial<PlatformHandlers>;
