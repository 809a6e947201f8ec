// HTTP in/out of client certificates (applications) and the webhook TLS settings.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { pageInfo, pageOf } from '../lib/paging';

export const certificateHandlers = {
  async listApplicationCertificates(req, ctx) {
    const page = pageOf(req.query);
    const { certificates, total } = await ctx.services.certificates.list(callerOf(ctx), req.params.clientId, page);
    return { status: 200, body: { certificates, pageInfo: pageInfo(page, total) } };
  },
  async createApplicationCertificate(req, ctx) {
    const body = await ctx.services.certificates.issue(callerOf(ctx), req.params.clientId, req.body);
    return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
  },
  async getApplicationCertificate(req, ctx) {
    const certificate = await ctx.services.certificates.get(
      callerOf(ctx),
      req.params.clientId,
      req.params.certificateId,
    );
    return { status: 200, body: { certificate } };
  },
  async revokeApplicationCertificate(req, ctx) {
    const certificate = await ctx.services.certificates.revoke(
      callerOf(ctx),
      req.params.clientId,
      req.params.certificateId,
      req.query.reason,
    );
    return { status: 200, body: { certificate } };
  },
} satisfies Partial<PlatformHandlers>;

export const webhookTlsHandlers = {
  async getWebhookTlsSettings(_req, ctx) {
    return { status: 200, body: { settings: await ctx.services.webhookTls.getSettings(callerOf(ctx)) } };
  },
  async setWebhookTlsSettings(req, ctx) {
    return { status: 200, body: { settings: await ctx.services.webhookTls.setSettings(callerOf(ctx), req.body) } };
  },
} satisfies Partial<PlatformHandlers>;
