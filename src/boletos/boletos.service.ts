// Boleto transactions: the boletos a company received (a BOLETO charge paid by its barcode,
// BOLETO_IN) and paid (a payment of type BOLETO, BOLETO_OUT), for reconciliation; and, in
// sandbox mode, an outside payer paying a boleto of this server by its barcode.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { WritePart } from '../db/together';
import { errors } from '../errors/errors';
import { recordEvents } from '../events/events.service';
import type { Principal } from '../identity/principal.types';
import { applyMove, counterLeg, OUTSIDE } from '../ledger/ledger.service';
import { brasiliaDate } from '../lib/brasilia';
import { validateBoleto } from '../lib/boleto';
import type { Clock } from '../db/clock';
import { newPublicId } from '../lib/ids';
import { cents } from '../lib/money';
import {
  boletoOfCharge,
  chargeEventPayloadOf,
  cobvAmountsOn,
  completeCharge,
  locationIdOfBarcode,
  lockChargeForPayment,
} from '../charges/charges.module';
import * as repo from './boletos.repository';
import { boletoTransactionView, type BoletoTransactionView } from './boletos.view';

export type { BoletoTransactionFilter } from './boletos.repository';

export const MAX_BOLETO_SKIP = 10_000;

export class BoletosService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  async list(
    principal: Principal,
    filter: repo.BoletoTransactionFilter,
    page: { skip: number; limit: number },
  ): Promise<{ transactions: BoletoTransactionView[]; hasNextPage: boolean }> {
    const rows = await repo.listBoletoTransactions(this.db, principal.companyId, filter, page);
    return {
      transactions: rows.slice(0, page.limit).map(boletoTransactionView),
      hasNextPage: rows.length > page.limit,
    };
  }

  async get(principal: Principal, id: string): Promise<BoletoTransactionView> {
    const row = await repo.findBoletoTransaction(this.db, principal.companyId, id);
    if (!row) throw errors.missing('boletoTransaction');
    return boletoTransactionView(row);
  }

  // A boleto of this server paid at an outside bank, settled at once (sandbox).
  async payByBarcode(input: { barcode: string; payer?: { name: string; taxID: string } }) {
    const checked = validateBoleto(input.barcode.replace(/[. ]/g, ''), brasiliaDate(this.clock.serverNow()));
    if (!checked.ok) throw errors.badRequest(`Invalid boleto barcode: ${checked.reason}`);
    const { barcode } = checked.value;
    const locationId = locationIdOfBarcode(barcode);
    if (locationId === undefined) throw errors.notFound(NOT_OURS);
    const id = await this.db.transaction().execute(async (trx) => {
      const locked = await lockChargeForPayment(trx, { locationId }, (companyId) => this.clock.now(companyId, trx));
      if (!locked.ok) throw locked.code === 'NOT_FOUND' ? errors.notFound(NOT_OURS) : errors.badRequest(locked.message);
      const { charge, amountDue, found, at } = locked.value;
      // The barcode of the charge as it is now (a revised value or due date makes another one).
      const boleto = boletoOfCharge(charge);
      if (!boleto || boleto.barcode !== barcode) throw errors.notFound(NOT_OURS);
      const parts = cobvAmountsOn(charge, brasiliaDate(at));
      const a = parts.ok ? parts.value : undefined;
      const btxId = newPublicId('btx');
      const moved = await applyMove(trx, {
        moveId: `boleto-in:${btxId}`,
        legs: [{ accountId: charge.account_id, kind: 'CREDIT', amount: amountDue }, counterLeg(OUTSIDE, -amountDue)],
        at,
        description: `Boleto received for charge ${charge.correlation_id ?? charge.txid}`,
      });
      if (!moved.ok) throw new Error(`crediting a boleto failed: ${moved.code}`);
      const paid = await completeCharge(trx, found, at);
      await repo.insertBoletoTransaction(trx, {
        id: btxId,
        company_id: charge.company_id,
        account_id: charge.account_id,
        type: 'BOLETO_IN',
        status: 'CONFIRMED',
        value: amountDue,
        fines_value: a?.multa || null,
        interests_value: a?.juros || null,
        discount_value: a ? a.desconto + a.abatimento || null : null,
        charge_id: charge.id,
        payment_id: null,
        barcode: boleto.barcode,
        digitable_line: boleto.digitableLine,
        payer_name: input.payer?.name ?? null,
        payer_tax_id: input.payer?.taxID.replace(/[.\-/\s]/g, '') ?? null,
        created_at: at,
        settled_at: at,
      });
      const payload = chargeEventPayloadOf({ ...found, charge: paid }, undefined, this.publicUrl, at);
      const boletoEvent = {
        correlationID: charge.correlation_id ?? charge.txid,
        status: 'COMPLETED',
        value: amountDue,
      };
      await recordEvents(trx, [
        {
          companyId: charge.company_id,
          type: 'OPENPIX:CHARGE_COMPLETED',
          payload: { ...payload, boleto: boletoEvent },
          at,
        },
      ]);
      return { companyId: charge.company_id, btxId };
    });
    // Read back with its charge, as the list and GET answer it.
    return boletoTransactionView((await repo.findBoletoTransaction(this.db, id.companyId, id.btxId))!);
  }
}

const NOT_OURS = 'No charge of this server has this boleto';

// A boleto the company paid (a BOLETO payment confirmed), written with the payment.
export function boletoOutPart(input: {
  companyId: string;
  accountId: string;
  paymentId: string;
  value: number;
  // The barcode or digitable line the payment was given (checked when it was created).
  boleto: string;
  at: Date;
}): WritePart {
  const checked = validateBoleto(input.boleto, brasiliaDate(input.at));
  const barcode = checked.ok ? checked.value.barcode : input.boleto;
  const digitableLine = checked.ok ? checked.value.digitableLine : input.boleto;
  return repo.insertBoletoTransactionPart({
    id: newPublicId('btx'),
    company_id: input.companyId,
    account_id: input.accountId,
    type: 'BOLETO_OUT',
    status: 'CONFIRMED',
    value: cents(input.value),
    fines_value: null,
    interests_value: null,
    discount_value: null,
    charge_id: null,
    payment_id: input.paymentId,
    barcode,
    digitable_line: digitableLine,
    payer_name: null,
    payer_tax_id: null,
    created_at: input.at,
    settled_at: null,
  });
}
