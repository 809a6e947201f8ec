// The sandbox's outside payer: pays a BR Code of this server, or sends a Pix to a key, as if
// from another institution (its own ISPB), through receivePix.
import type { Kysely } from 'kysely';
import type { components, operations } from '../../generated/platform.types';
import { type IncomingPix, type ReceiveContext, type SettledPix, settleIncomingPix } from './receive.service';
import type { Database } from '../db/schema';
import { DomainError, errors } from '../errors/errors';
import { parseBrCode } from '../lib/brcode';
import { newEndToEndId } from '../lib/ids';
import { cents } from '../lib/money';
import { normalizeTaxId } from '../lib/taxid';
import { money } from './pixin.view';

// The bank of the sandbox's outside payers (a real participant's ISPB, not this server's).
export const OUTSIDE_PAYER_ISPB = '18236120';
// The largest Pix amount the standard writes (10 integer digits): 9999999999.99.
export const MAX_PIX_CENTS = 999_999_999_999;

type SandboxPayer = components['schemas']['SandboxPayer'];
type SandboxPayInput = operations['sandboxPay']['requestBody']['content']['application/json'];
type SandboxPixInInput = operations['sandboxPixIn']['requestBody']['content']['application/json'];

export class SandboxPayService {
  constructor(
    private readonly db: Kysely<Database>,
    // The receiving company's clock decides the payment's time (expiry, amounts due).
    private readonly context: ReceiveContext,
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
    // The outside payer's bank names the Pix on its own (the server's) time.
    const at = new Date();
    const base = { endToEndId: newEndToEndId(OUTSIDE_PAYER_ISPB, at), at, payer };
    const incoming: IncomingPix =
      code.kind === 'dynamic'
        ? {
            ...base,
            // A code without amount (cobv) is paid what its payload says is due now.
            value:
              input.value !== undefined
                ? cents(input.value)
                : code.amount !== undefined
                  ? cents(code.amount)
                  : 'amount-due',
            locationUrl: code.locationUrl!,
          }
        : {
            ...base,
            value: cents(input.value ?? code.amount!),
            pixKey: code.pixKey!,
            ...(code.txid ? { txid: code.txid } : {}),
          };
    const settled = await this.db
      .transaction()
      .execute((trx) =>
        settle(trx, incoming, this.context, code.kind === 'dynamic' ? 'Charge not found' : 'Pix key not found'),
      );
    return resultView(settled);
  }

  async pixIn(input: SandboxPixInInput) {
    const payer = payerOf(input.payer);
    checkValue(input.value);
    const at = new Date();
    const incoming: IncomingPix = {
      endToEndId: newEndToEndId(OUTSIDE_PAYER_ISPB, at),
      at,
      payer,
      value: cents(input.value),
      pixKey: input.pixKey,
      ...(input.comment ? { infoPagador: input.comment } : {}),
    };
    const settled = await this.db
      .transaction()
      .execute((trx) => settle(trx, incoming, this.context, 'Pix key not found'));
    return resultView(settled);
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

async function settle(
  trx: Kysely<Database>,
  incoming: IncomingPix,
  context: ReceiveContext,
  notFound: string,
): Promise<SettledPix> {
  const result = await settleIncomingPix(trx, incoming, context);
  if (!result.ok) throw refusal(result.code, result.code === 'NOT_FOUND' ? notFound : result.message);
  return result;
}

function refusal(code: string, message: string): DomainError {
  return code === 'NOT_FOUND' ? errors.notFound(message) : errors.badRequest(message);
}

function resultView(s: SettledPix): components['schemas']['SandboxPixResult'] {
  return {
    endToEndId: s.pix.end_to_end_id,
    value: s.pix.value,
    time: s.pix.settled_at.toISOString(),
    status: 'CONFIRMED',
    ...(s.charge?.correlation_id ? { chargeCorrelationID: s.charge.correlation_id } : {}),
    pixKey: s.pix.pix_key,
  };
}
