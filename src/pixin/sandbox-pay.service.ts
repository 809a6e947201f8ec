// The sandbox's outside payer: pays a BR Code of this server, or sends a Pix to a key, as if
// from another institution (its own ISPB), through receivePix.
import type { Kysely } from 'kysely';
import { lockChargeForPayment } from '../charges/payable';
import { type IncomingPix, type SettledPix, settleIncomingPix } from '../charges/receive.service';
import type { Database } from '../db/schema';
import { ApiError, errors } from '../http/errors';
import { parseBrCode } from '../lib/brcode';
import type { Clock } from '../lib/clock';
import { newEndToEndId } from '../lib/ids';
import { cents, type Cents } from '../lib/money';
import { normalizeTaxId } from '../lib/taxid';
import { money } from './pixin.views';

// The bank of the sandbox's outside payers (a real participant's ISPB, not this server's).
export const OUTSIDE_PAYER_ISPB = '18236120';
// The largest Pix amount the standard writes (10 integer digits): 9999999999.99.
export const MAX_PIX_CENTS = 999_999_999_999;

export interface SandboxPayer {
  name: string;
  taxID: string;
}

export interface SandboxPayInput {
  brCode: string;
  value?: number;
  payer: SandboxPayer;
}

export interface SandboxPixInInput {
  pixKey: string;
  value: number;
  payer: SandboxPayer;
  comment?: string;
}

export class SandboxPayService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async pay(input: SandboxPayInput) {
    const payer = payerOf(input.payer);
    if (input.value !== undefined) checkValue(input.value);
    const parsed = parseBrCode(input.brCode);
    if (!parsed.ok) throw errors.badRequest('Invalid BR Code', [{ field: 'brCode', message: parsed.reason }]);
    const code = parsed.value;
    if (
      code.kind === 'static' &&
      code.amount !== undefined &&
      input.value !== undefined &&
      input.value !== code.amount
    ) {
      throw errors.badRequest(`The value differs from the amount of the QR code (${money(code.amount)})`, [
        { field: 'value', message: `must be ${code.amount} or absent` },
      ]);
    }
    if (code.kind === 'static' && code.amount === undefined && input.value === undefined) {
      throw errors.validation([{ field: 'value', message: 'value is required to pay a QR code without amount' }]);
    }
    const settled = await this.db.transaction().execute(async (trx) => {
      const at = await this.clock.now(trx);
      const base = { endToEndId: newEndToEndId(OUTSIDE_PAYER_ISPB, at), at, payer };
      let incoming: IncomingPix;
      if (code.kind === 'dynamic') {
        const locationUrl = code.locationUrl!;
        const value = input.value ?? code.amount ?? (await this.amountDueAt(trx, locationUrl, at));
        incoming = { ...base, value: cents(value), locationUrl };
      } else {
        incoming = {
          ...base,
          value: cents(input.value ?? code.amount!),
          pixKey: code.pixKey!,
          ...(code.txid ? { txid: code.txid } : {}),
        };
      }
      return settle(trx, incoming, code.kind === 'dynamic' ? 'Charge not found' : 'Pix key not found');
    });
    return resultView(settled);
  }

  async pixIn(input: SandboxPixInInput) {
    const payer = payerOf(input.payer);
    checkValue(input.value);
    const settled = await this.db.transaction().execute(async (trx) => {
      const at = await this.clock.now(trx);
      return settle(
        trx,
        {
          endToEndId: newEndToEndId(OUTSIDE_PAYER_ISPB, at),
          at,
          payer,
          value: cents(input.value),
          pixKey: input.pixKey,
          ...(input.comment ? { infoPagador: input.comment } : {}),
        },
        'Pix key not found',
      );
    });
    return resultView(settled);
  }

  // What the payer's bank reads from the payload when the code carries no amount (cobv).
  private async amountDueAt(trx: Kysely<Database>, locationUrl: string, at: Date): Promise<Cents> {
    const locked = await lockChargeForPayment(trx, { locationUrl }, at);
    if (!locked.ok) throw refusal(locked.code, locked.code === 'NOT_FOUND' ? 'Charge not found' : locked.message);
    return locked.value.amountDue;
  }
}

function checkValue(value: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_PIX_CENTS) {
    throw errors.validation([{ field: 'value', message: `must be an integer from 1 to ${MAX_PIX_CENTS} (cents)` }]);
  }
}

function payerOf(payer: SandboxPayer): IncomingPix['payer'] {
  const taxId = normalizeTaxId(payer.taxID);
  if (!taxId.ok) throw errors.validation([{ field: 'payer.taxID', message: taxId.reason }]);
  return { name: payer.name.trim() || payer.name, taxId: taxId.value.taxId, ispb: OUTSIDE_PAYER_ISPB };
}

async function settle(trx: Kysely<Database>, incoming: IncomingPix, notFound: string): Promise<SettledPix> {
  const result = await settleIncomingPix(trx, incoming);
  if (!result.ok) throw refusal(result.code, result.code === 'NOT_FOUND' ? notFound : result.message);
  return result;
}

function refusal(code: string, message: string): ApiError {
  return code === 'NOT_FOUND' ? errors.notFound(message) : errors.badRequest(message);
}

function resultView(s: SettledPix) {
  return {
    endToEndId: s.pix.end_to_end_id,
    value: s.pix.value,
    time: s.pix.settled_at.toISOString(),
    status: 'CONFIRMED' as const,
    ...(s.charge?.correlation_id ? { chargeCorrelationID: s.charge.correlation_id } : {}),
    pixKey: s.pix.pix_key,
  };
}
