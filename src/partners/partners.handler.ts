// HTTP in/out of partners: affiliates, pre-registrations and applications for affiliates.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const partnerHandlers = {
  async listPartnerAffiliates(req, ctx) {
    const page = pageOf(req.query);
    const { affiliates, total } = await ctx.services.partners.listAffiliates(callerOf(ctx), page);
    return { status: 200, body: { affiliates, pageInfo: pageInfo(page, total) } };
  },
  async listPartnerPreRegistrations(req, ctx) {
    const page = pageOf(req.query);
    const { preRegistrations, total } = await ctx.services.partners.listPreRegistrations(callerOf(ctx), page);
    return { status: 200, body: { preRegistrations, pageInfo: pageInfo(page, total) } };
  },
  async createPartnerPreRegistration(req, ctx) {
    const { created, preRegistration } = await ctx.services.partners.createPreRegistration(callerOf(ctx), req.body);
    return created ? { status: 201, body: preRegistration } : { status: 200, body: preRegistration };
  },
  async getPartnerPreRegistration(req, ctx) {
    return {
      status: 200,
      body: { preRegistration: await ctx.services.partners.getPreRegistration(callerOf(ctx), req.params.taxID) },
    };
  },
  async createPartnerApplication(req, ctx) {
    const { created, application } = await ctx.services.partners.createApplication(callerOf(ctx), req.body);
    return created ? { status: 201, body: { application } } : { status: 200, body: { application } };
  },
} satisfies Partial<PlatformHandlers>;
