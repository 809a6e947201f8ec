// HTTP in/out of the sandbox group (mounted only in sandbox mode).
import type { PlatformHandlers } from '../../generated/platform.operations';
import { balanceView } from '../ledger/ledger.service';
import { errors } from '../errors/errors';
import { callerOf } from '../http/principal-guard';

export const sandboxHandlers = {
  async createSandboxCompany(req, ctx) {
    const { company, account, application, pixKey } = await ctx.services.sandbox.createCompany(req.body ?? {});
    return {
      status: 201,
      body: {
        company: {
          id: company.id,
          name: company.name,
          officialName: company.official_name,
          tradeName: company.trade_name,
          taxID: company.tax_id,
          features: company.features,
        },
        account: {
          accountId: account.id,
          isDefault: account.is_default,
          balance: balanceView(undefined),
          taxId: company.tax_id,
          officialName: company.official_name,
          tradeName: company.trade_name,
          branch: account.branch,
          account: account.account_number,
          accountName: account.account_name,
        },
        application,
        pixKey,
      },
    };
  },
  async getSandboxClock(req, ctx) {
    // Credentials are optional here; sent but not accepted, they are refused as anywhere else.
    if (req.headers.authorization !== undefined && !ctx.principal) throw errors.unauthorized();
    return { status: 200, body: await ctx.services.sandbox.clockNow(ctx.principal?.companyId) };
  },
  async advanceSandboxClock(req, ctx) {
    const body = await ctx.services.sandbox.advanceClock(callerOf(ctx).companyId, req.body.seconds);
    return { status: 200, body };
  },
} satisfies Partial<PlatformHandlers>;
