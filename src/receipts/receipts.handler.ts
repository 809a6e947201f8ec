// HTTP in/out of Pix receipts: the format by ?format= or else by the Accept header.
import type { PlatformHandlers } from '../../generated/platform.operations';
import { callerOf } from '../http/principal-guard';
import type { ReceiptFormat } from './receipts.service';

// PNG when asked by name, or when Accept prefers image/png to application/pdf.
export function receiptFormatOf(format: string | undefined, accept: string | undefined): ReceiptFormat {
  if (format === 'png' || format === 'pdf') return format;
  const q = (type: string) => {
    for (const part of (accept ?? '').toLowerCase().split(',')) {
      const [media = '', ...params] = part.trim().split(';');
      if (media.trim() !== type) continue;
      const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return weight === undefined ? 1 : Number(weight);
    }
    return 0;
  };
  return q('image/png') > q('application/pdf') ? 'png' : 'pdf';
}

export const receiptHandlers = {
  async getReceipt(req, ctx) {
    const receipt = await ctx.services.receipts.render(callerOf(ctx), {
      type: req.params.ReceiptType,
      endToEndId: req.params.EndToEndId,
      format: receiptFormatOf(req.query.format, req.headers.accept),
      size: req.query.size ?? 'a4',
    });
    return {
      status: 200,
      body: receipt.body,
      contentType: receipt.contentType,
      headers: {
        'Content-Disposition': `inline; filename="${receipt.filename}"`,
        'Cache-Control': 'private, no-store',
        Vary: 'Accept',
      },
    };
  },
} satisfies Partial<PlatformHandlers>;
