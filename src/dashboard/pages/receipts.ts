// A Pix receipt (PDF) from the dashboard: the receipts service with the signed-in company, as
// GET /api/v1/receipt/{type}/{endToEndId} answers it; another company's Pix is not found.
import { errors } from '../../errors/errors';
import type { Answer, DashContext } from '../context';

const TYPES = ['pix-in', 'pix-out', 'pix-refund'] as const;

export async function receiptFile(ctx: DashContext): Promise<Answer> {
  const type = TYPES.find((t) => t === ctx.params.type);
  const endToEndId = ctx.params.endToEndId!;
  if (!type || !/^[A-Za-z0-9]{1,64}$/.test(endToEndId)) throw errors.missing('receipt');
  const receipt = await ctx.services.receipts.render(ctx.principal, { type, endToEndId, format: 'pdf', size: 'a4' });
  return { kind: 'file', body: receipt.body, contentType: receipt.contentType, filename: receipt.filename };
}
