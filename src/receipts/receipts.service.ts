// Pix receipts ("comprovantes"): a PDF or PNG of one Pix of the company, made from its
// transaction and the Pix rows only (one statement). An end-to-end id of another company, or
// of no Pix of that type, answers as a missing receipt.
import type { Clock } from '../db/clock';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import type { TransactionsService } from '../transactions/transactions.service';
import { RECEIPT_TRANSACTION_TYPES, receiptDataOf, type ReceiptType } from './receipt-data';
import { layoutReceipt, type ReceiptSize } from './receipt-layout';
import { renderPdf, renderPng } from './receipt-render';

export type ReceiptFormat = 'pdf' | 'png';

export interface RenderedReceipt {
  body: Buffer;
  contentType: 'application/pdf' | 'image/png';
  filename: string;
}

// Pixels per point of the PNG: an A4 page at 144 dpi (1191 x 1684 px), a phone receipt
// 1080 px wide (a phone screen's width, as a screenshot would be).
export const PNG_SCALE: Record<ReceiptSize, number> = { a4: 2, phone: 3 };

export class ReceiptsService {
  constructor(
    private readonly transactions: TransactionsService,
    private readonly clock: Clock,
  ) {}

  async render(
    principal: Principal,
    request: { type: ReceiptType; endToEndId: string; format: ReceiptFormat; size: ReceiptSize },
  ): Promise<RenderedReceipt> {
    const { type, endToEndId, format, size } = request;
    const source = await this.transactions.receiptSource(
      principal.companyId,
      endToEndId,
      RECEIPT_TRANSACTION_TYPES[type],
    );
    if (!source) throw errors.missing('receipt');
    const data = receiptDataOf(type, source);
    const generatedAt = await this.clock.now(principal.companyId);
    const build = (measure: Parameters<typeof layoutReceipt>[1]['measure']) =>
      layoutReceipt(data, { size, measure, generatedAt });
    const filename = `comprovante-${type}-${endToEndId}.${format}`;
    if (format === 'png') return { body: await renderPng(build, PNG_SCALE[size]), contentType: 'image/png', filename };
    const title = `Comprovante ${type} ${endToEndId}`;
    return {
      body: await renderPdf(build, { title, createdAt: generatedAt }),
      contentType: 'application/pdf',
      filename,
    };
  }
}
