// HTTP in/out of applications (platform API) and OAuth tokens (Pix API).
import type { PixHandlers } from '../../generated/pix.operations';
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { pageInfo, pageOf } from '../lib/paging';

export const applicationHandlers = {
  async listApplications(req, ctx) {
    const page = pageOf(req.query);
    const { applications, total } = await ctx.services.identity.listApplications(callerOf(ctx), page);
    return { status: 200, body: { applications, pageInfo: pageInfo(page, total) } };
  },
  async createApplication(req, ctx) {
    const application = await ctx.services.identity.createApplication(callerOf(ctx), req.body);
    return { status: 201, body: { application } };
  },
  async deleteApplication(req, ctx) {
    await ctx.services.identity.deleteApplication(callerOf(ctx), req.body.clientId);
    return { status: 200, body: { success: true } };
  },
} satisfies Partial<PlatformHandlers>;

// A company's features: changed by a platform operator (the company in the path), or in the
// sandbox by the company's own application.
export const featureHandlers = {
  async setCompanyFeatures(req, ctx) {
    const body = await ctx.services.identity.changeFeatures(req.params.companyId, req.body, {
      kind: 'OPERATOR',
      requestId: ctx.requestId,
    });
    return { status: 200, body };
  },
  async setSandboxCompanyFeatures(req, ctx) {
    const caller = callerOf(ctx);
    const body = await ctx.services.identity.changeFeatures(caller.companyId, req.body, {
      kind: 'SANDBOX',
      applicationId: caller.applicationId,
      requestId: ctx.requestId,
    });
    return { status: 200, body };
  },
} satisfies Partial<PlatformHandlers>;

export const oauthHandlers = {
  async issueToken(req, ctx) {
    const token = await ctx.services.oauth.issueToken(
      callerOf(ctx),
      req.body.grant_type,
      req.body.scope,
      ctx.clientCertificate,
    );
    return { status: 200, body: token, headers: { 'Cache-Control': 'no-store' } };
  },
} satisfies Partial<PixHandlers>;
