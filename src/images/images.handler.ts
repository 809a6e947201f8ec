// HTTP in/out of the QR code images (a PNG, or a PNG data URI).
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const imageHandlers = {
  async getChargeQrImage(req, ctx) {
    const png = await ctx.services.charges.images.png(req.params.id, req.query.size);
    return { status: 200, body: png, contentType: 'image/png', headers: { 'Cache-Control': 'no-cache' } };
  },
  async getQrCodeBase64(req, ctx) {
    const imageBase64 = await ctx.services.charges.images.base64(callerOf(ctx), req.params.id, req.query.size);
    return { status: 200, body: { success: true, imageBase64 } };
  },
} satisfies Partial<PlatformHandlers>;
