// QR code images of charges and static QR codes: the BR Code rendered as a PNG.
import type { Kysely } from 'kysely';
import { brCodeOf, chargeViewContext, findChargeByPaymentLinkId, findCompanyCharge } from '../charges/charges.public';
import type { Charge, Database } from '../db/schema';
import { errors } from '../errors/errors';
import type { Principal } from '../identity/principal.types';
import { qrPngDataUri, renderQrPng } from '../lib/qr-image';
import { findStaticQrByAnyId, findStaticQrByPaymentLinkId } from '../qrcodes/qrcodes.public';

export const DEFAULT_IMAGE_SIZE = 1024;
export const MIN_IMAGE_SIZE = 600;
export const MAX_IMAGE_SIZE = 4096;

export class ImagesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly publicUrl: string,
  ) {}

  private checkSize(size: number | undefined): number {
    const s = size ?? DEFAULT_IMAGE_SIZE;
    if (!Number.isInteger(s) || s < MIN_IMAGE_SIZE || s > MAX_IMAGE_SIZE) {
      throw errors.validation(
        [{ field: 'size', in: 'query', message: 'must be between 600 and 4096' }],
        'size must be between 600 and 4096',
      );
    }
    return s;
  }

  private async chargeBrCode(charge: Charge): Promise<string | undefined> {
    const ctx = await chargeViewContext(this.db, charge);
    return ctx.location ? brCodeOf(this.publicUrl, charge, ctx.location, ctx.company) : undefined;
  }

  // The BR Code behind a payment link id (a charge's or a static QR code's).
  private async brCodeOfPaymentLink(paymentLinkId: string): Promise<string | undefined> {
    const charge = await findChargeByPaymentLinkId(this.db, paymentLinkId);
    if (charge) return this.chargeBrCode(charge);
    return (await findStaticQrByPaymentLinkId(this.db, paymentLinkId))?.br_code;
  }

  // GET /openpix/charge/brcode/image/{id}.png (open: the payment link id is unguessable).
  async png(paymentLinkId: string, size: number | undefined): Promise<Buffer> {
    const px = this.checkSize(size);
    const brCode = await this.brCodeOfPaymentLink(paymentLinkId.replace(/\.png$/i, ''));
    if (!brCode) throw errors.missing('charge');
    return renderQrPng(brCode, px);
  }

  // GET /api/image/qrcode/base64/{id}: id is a charge id (or globalID, correlationID, txid),
  // a payment link id or a static QR code id of the caller's company.
  async base64(principal: Principal, id: string, size: number | undefined): Promise<string> {
    const px = this.checkSize(size);
    const { companyId } = principal;
    let brCode: string | undefined;
    const charge = (await findCompanyCharge(this.db, companyId, id)) ?? (await findChargeByPaymentLinkId(this.db, id));
    if (charge && charge.company_id === companyId) brCode = await this.chargeBrCode(charge);
    else {
      const code =
        (await findStaticQrByAnyId(this.db, companyId, id)) ?? (await findStaticQrByPaymentLinkId(this.db, id));
      if (code && code.company_id === companyId) brCode = code.br_code;
    }
    if (!brCode) throw errors.missing('qrCode');
    return qrPngDataUri(brCode, px);
  }
}
