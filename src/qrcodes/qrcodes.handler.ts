// HTTP in/out of static QR codes.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { pageInfo, pageOf } from '../lib/paging';
import { callerOf } from '../http/principal-guard';

export const qrCodeHandlers = {
  async createStaticQrCode(req, ctx) {
    return { status: 200, body: await ctx.services.qrcodes.create(callerOf(ctx), req.body) };
  },
  async listStaticQrCodes(req, ctx) {
    const page = pageOf(req.query);
    const { pixQrCodes, total } = await ctx.services.qrcodes.list(callerOf(ctx), page);
    return { status: 200, body: { pixQrCodes, pageInfo: pageInfo(page, total) } };
  },
  async getStaticQrCode(req, ctx) {
    return { status: 200, body: { pixQrCode: await ctx.services.qrcodes.get(callerOf(ctx), req.params.id) } };
  },
  async deleteStaticQrCode(req, ctx) {
    await ctx.services.qrcodes.delete(callerOf(ctx), req.params.id);
    return { status: 200, body: { status: 'OK', id: req.params.id } };
  },
} satisfies Partial<PlatformHandlers>;
