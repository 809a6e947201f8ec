// HTTP in/out of the QR code images (a PNG, or a PNG data URI) and of the payment page.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';

export const imageHandlers = {
  async getChargeQrImage(req, ctx) {
    const png = await ctx.services.charges.images.png(req.params.id, req.query.size);
    return { status: 200, body: png, contentType: 'image/png', headers: { 'Cache-Control': 'no-cache' } };
  },
  async getPaymentLinkPage(req, ctx) {
    const html = await ctx.services.charges.paymentPages.render(req.params.paymentLinkID);
    return {
      status: 200,
      body: html,
      contentType: 'text/html; charset=utf-8',
      headers: {
        'Cache-Control': 'no-store',
        'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
        'X-Content-Type-Options': 'nosniff',
      },
    };
  },
  async getQrCodeBase64(req, ctx) {
    const imageBase64 = await ctx.services.charges.images.base64(callerOf(ctx), req.params.id, req.query.size);
    return { status: 200, body: { success: true, imageBase64 } };
  },
} satisfies Partial<PlatformHandlers>;
