// HTTP in/out of KYC onboarding, representatives, one-time codes and the sandbox helpers.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';
import { PAGE_HEADERS } from '../lib/html';

export const kycHandlers = {
  async createKycOnboarding(req, ctx) {
    const { created, onboarding } = await ctx.services.kycOnboardings.create(callerOf(ctx), req.body);
    return created ? { status: 201, body: { onboarding } } : { status: 200, body: { onboarding } };
  },
  async submitKycOnboarding(req, ctx) {
    return {
      status: 200,
      body: { onboarding: await ctx.services.kycOnboardings.submit(callerOf(ctx), req.params.correlationID) },
    };
  },
  async listKycRepresentatives(req, ctx) {
    const page = pageOf(req.query);
    const { representatives, total } = await ctx.services.kycOnboardings.listRepresentatives(
      callerOf(ctx),
      req.query.correlationID,
      page,
    );
    return { status: 200, body: { representatives, pageInfo: pageInfo(page, total) } };
  },
  async createKycRepresentative(req, ctx) {
    const { created, representative } = await ctx.services.kycOnboardings.upsertRepresentative(callerOf(ctx), req.body);
    return created ? { status: 201, body: { representative } } : { status: 200, body: { representative } };
  },
  async sendKycRepresentativeEmailCode(req, ctx) {
    return { status: 200, body: { outcome: await ctx.services.kycCodes.send(callerOf(ctx), 'EMAIL', req.body) } };
  },
  async verifyKycRepresentativeEmailCode(req, ctx) {
    return { status: 200, body: { outcome: await ctx.services.kycCodes.verify(callerOf(ctx), 'EMAIL', req.body) } };
  },
  async sendKycRepresentativePhoneCode(req, ctx) {
    return { status: 200, body: { outcome: await ctx.services.kycCodes.send(callerOf(ctx), 'PHONE', req.body) } };
  },
  async verifyKycRepresentativePhoneCode(req, ctx) {
    return { status: 200, body: { outcome: await ctx.services.kycCodes.verify(callerOf(ctx), 'PHONE', req.body) } };
  },
  async getSandboxKycCode(req, ctx) {
    return {
      status: 200,
      body: await ctx.services.kycCodes.lastSandboxCode(req.query.representativeId, req.query.channel),
    };
  },
  async getSandboxKycInbox(req, ctx) {
    const html = await ctx.services.kycCodes.inbox(req.query.address);
    return { status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS };
  },
  async getKycOnboardingPage(req, ctx) {
    const html = await ctx.services.kycOnboardings.page(req.params.token);
    return { status: 200, body: html, contentType: 'text/html; charset=utf-8', headers: PAGE_HEADERS };
  },
  async reviewSandboxKycOnboarding(req, ctx) {
    return {
      status: 200,
      body: { onboarding: await ctx.services.kycOnboardings.review(req.body.link, req.body.decision) },
    };
  },
} satisfies Partial<PlatformHandlers>;
