// Static Pix QR codes: a BR Code paying straight to one of the company's keys, with an
// optional fixed amount and a generated txid (its identifier), plus a payment link.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { components } from '../../generated/platform.types';
import type { Database, PixKey, StaticQrCodeRow } from '../db/schema';
import { errors } from '../errors/errors';
import type { Page } from '../lib/paging';
import type { Principal } from '../identity/principal.types';
import { findCompany } from '../identity/identity.public';
import { findCompanyKey, findDefaultKey } from '../keys/keys.public';
import { buildStaticBrCode } from '../lib/brcode';
import type { Clock } from '../db/clock';
import { newPublicId, randomAlphanumeric } from '../lib/ids';
import { cents } from '../lib/money';
import { toEmvText } from '../lib/text';
import * as repo from './qrcodes.repository';

export type PixQrCodeView = components['schemas']['PixQrCode'];
export type PixQrCodeCreateInput = components['schemas']['PixQrCodeCreatePayload'];

// The merchant city written into every static BR Code (field 60).
export const STATIC_QR_MERCHANT_CITY = 'SAO PAULO';
// The BR Code txid (62.05) of a static code: this many random letters and digits (the most allowed).
const IDENTIFIER_LENGTH = 25;
// The largest amount a BR Code can carry (field 54: 10 integer digits and 2 decimals).
export const MAX_STATIC_QR_VALUE = 999_999_999_999;
const NOT_FOUND = 'QR code not found';

export class QrCodesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async create(
    principal: Principal,
    input: PixQrCodeCreateInput,
  ): Promise<{ pixQrCode: PixQrCodeView; correlationID: string; brCode: string }> {
    const name = input.name.trim();
    if (!name) throw errors.validation([{ field: 'name', in: 'body', message: 'must not be blank' }], 'Invalid name');
    if (input.value !== undefined && input.value > MAX_STATIC_QR_VALUE) {
      throw errors.validation(
        [
          {
            field: 'value',
            in: 'body',
            message: `must be at most ${MAX_STATIC_QR_VALUE} cents`,
            value: String(input.value),
          },
        ],
        'Invalid value',
      );
    }
    if (input.correlationID !== undefined && !input.correlationID.trim()) {
      throw errors.validation(
        [{ field: 'correlationID', in: 'body', message: 'must not be blank' }],
        'Invalid correlationID',
      );
    }
    const comment = input.comment?.trim() || undefined;
    return this.db.transaction().execute(async (trx) => {
      const key = await this.keyOf(trx, principal.companyId, input.pixKey);
      const company = await findCompany(trx, principal.companyId);
      if (!company) throw errors.missing('company');
      const now = await this.clock.now(principal.companyId, trx);
      const correlationId = input.correlationID ?? randomUUID();
      // Twice at most: a new identifier if a (key, identifier) pair were ever taken.
      for (let attempt = 0; attempt < 2; attempt++) {
        const identifier = randomAlphanumeric(IDENTIFIER_LENGTH);
        const brCode = buildStaticBrCode({
          pixKey: key.key,
          merchantName: toEmvText(company.name, 25) || company.tax_id,
          merchantCity: STATIC_QR_MERCHANT_CITY,
          ...(input.value !== undefined ? { amount: cents(input.value) } : {}),
          txid: identifier,
          ...(comment ? { description: comment } : {}),
        });
        const row = await repo.insertStaticQrCodeIfFree(trx, {
          id: newPublicId('qr'),
          company_id: principal.companyId,
          account_id: key.account_id,
          correlation_id: correlationId,
          name,
          value: input.value ?? null,
          comment: comment ?? null,
          pix_key: key.key,
          identifier,
          payment_link_id: randomUUID(),
          br_code: brCode,
          created_at: now,
          updated_at: now,
        });
        if (row) return { pixQrCode: this.view(row), correlationID: row.correlation_id, brCode: row.br_code };
        if (await repo.findStaticQrByCorrelationId(trx, principal.companyId, correlationId)) {
          throw errors.badRequest('QR code with this correlationID already exists', [
            { field: 'correlationID', in: 'body', message: 'is already used by another QR code' },
          ]);
        }
      }
      throw new Error('could not allocate a static QR code identifier');
    });
  }

  async list(principal: Principal, page: Page): Promise<{ pixQrCodes: PixQrCodeView[]; total: number }> {
    const { rows, total } = await repo.listStaticQrCodes(this.db, principal.companyId, page.skip, page.limit);
    return { pixQrCodes: rows.map((r) => this.view(r)), total };
  }

  // id: the code's id, its correlationID or its identifier (the BR Code's txid).
  async get(principal: Principal, id: string): Promise<PixQrCodeView> {
    const row = await repo.findStaticQrByAnyId(this.db, principal.companyId, id);
    if (!row) throw errors.notFound(NOT_FOUND);
    return this.view(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.findStaticQrByAnyId(trx, principal.companyId, id);
      if (
        !row ||
        !(await repo.markDeleted(trx, principal.companyId, row.id, await this.clock.now(principal.companyId, trx)))
      )
        throw errors.notFound(NOT_FOUND);
    });
  }

  view(row: StaticQrCodeRow): PixQrCodeView {
    return {
      id: row.id,
      name: row.name,
      ...(row.value !== null ? { value: row.value } : {}),
      ...(row.comment !== null ? { comment: row.comment } : {}),
      correlationID: row.correlation_id,
      identifier: row.identifier,
      paymentLinkID: row.payment_link_id,
      paymentLinkUrl: `${this.publicUrl}/pay/${row.payment_link_id}`,
      qrCodeImage: `${this.publicUrl}/openpix/charge/brcode/image/${row.payment_link_id}.png`,
      brCode: row.br_code,
      pixKey: row.pix_key,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    };
  }

  // The key sent (one of the company's), or the company's default key.
  private async keyOf(trx: Kysely<Database>, companyId: string, sent: string | undefined): Promise<PixKey> {
    if (sent === undefined) {
      const key = await findDefaultKey(trx, companyId);
      if (!key)
        throw errors.badRequest('The company has no default Pix key: send pixKey', [
          { field: 'pixKey', in: 'body', message: 'is required: the company has no default key' },
        ]);
      return key;
    }
    const trimmed = sent.trim();
    const key =
      (await findCompanyKey(trx, companyId, trimmed)) ?? (await findCompanyKey(trx, companyId, trimmed.toLowerCase()));
    if (!key)
      throw errors.badRequest('Pix key not found for this company', [
        { field: 'pixKey', in: 'body', message: 'is not a key of this company' },
      ]);
    return key;
  }
}
