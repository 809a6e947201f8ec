// HTTP in/out of the QR code images (a PNG, or a PNG data URI) and of the payment page.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import { htmlPageHeaders, newNonce } from '../lib/html';
import { localeOf, paymentPagePolicy } from './payment-page.view';

export const imageHandlers = {
  async getChargeQrImage(req, ctx) {
    const png = await ctx.services.images.png(req.params.id, req.query.size);
    return { status: 200, body: png, contentType: 'image/png', headers: { 'Cache-Control': 'no-cache' } };
  },
  async getPaymentLinkPage(req, ctx) {
    // a new nonce per answer: the page's own style and script run, nothing injected does
    const nonce = newNonce();
    const locale = localeOf(req.headers['accept-language']);
    const html = await ctx.services.paymentPages.render(req.params.paymentLinkID, locale, nonce);
    return {
      status: 200,
      body: html,
      contentType: 'text/html; charset=utf-8',
      headers: { ...htmlPageHeaders(paymentPagePolicy(nonce)), 'Content-Language': locale, Vary: 'Accept-Language' },
    };
  },
  async getPaymentLinkStatus(req, ctx) {
    const body = await ctx.services.paymentPages.status(req.params.paymentLinkID);
    return { status: 200, body, headers: { 'Cache-Control': 'no-store' } };
  },
  async getQrCodeBase64(req, ctx) {
    const imageBase64 = await ctx.services.images.base64(callerOf(ctx), req.params.id, req.query.size);
    return { status: 200, body: { success: true, imageBase64 } };
  },
} satisfies Partial<PlatformHandlers>;
