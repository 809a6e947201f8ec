// Sample payloads of the money-in events for test events: a made-up Pix (paying a made-up
// charge, when the event names one) and a made-up refund of it, through the views and payload
// builders the real events use.
import type { PixDevolution, PixReceived } from '../db/schema';
import { type EventSamples, SAMPLE_PREFIX, type SampleContext } from '../events/events.service';
import { chargeEventView, sampleChargeInContext } from '../charges/charges.module';
import { settlementPayloads } from './receive.service';
import { accountEventView, companyView, platformPixView, refundEventView } from './pixin.view';

// A valid CPF, of nobody.
const PAYER_TAX_ID = '12345678909';
const SAMPLE_ISPB = '99999999';

// An end-to-end (E) or return (D) id of the standard's form, marked TEST.
function sampleId(prefix: 'E' | 'D', ctx: SampleContext): string {
  const stamp = ctx.now.toISOString().replace(/\D/g, '').slice(0, 12);
  return `${prefix}${SAMPLE_ISPB}${stamp}TEST${ctx.suffix.slice(0, 7).toUpperCase()}`;
}

function samplePix(ctx: SampleContext, charge?: { id: string; txid: string }): PixReceived {
  return {
    end_to_end_id: sampleId('E', ctx),
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    charge_id: charge?.id ?? null,
    txid: charge?.txid ?? null,
    pix_key: ctx.pixKey,
    value: 1000,
    withdrawal_kind: null,
    withdrawal_value: 0,
    components: null,
    payer_name: 'Pagador de Teste',
    payer_tax_id: PAYER_TAX_ID,
    payer_ispb: SAMPLE_ISPB,
    payer_company_id: null,
    payer_account_id: null,
    info_pagador: 'Test event: this Pix does not exist',
    transaction_id: `${SAMPLE_PREFIX}transaction-${ctx.suffix}`,
    settled_at: ctx.now,
  };
}

// A paid sample charge with the Pix that paid it.
function paidCharge(ctx: SampleContext) {
  const charge = sampleChargeInContext(ctx, { status: 'CONCLUIDA' });
  const paid = { ...charge.charge, paid_at: ctx.now };
  const pix = samplePix(ctx, paid);
  return { pix, view: chargeEventView(paid, charge, ctx.publicUrl, ctx.now) };
}

function sampleRefund(ctx: SampleContext, pix: PixReceived, status: PixDevolution['status']): PixDevolution {
  return {
    end_to_end_id: pix.end_to_end_id,
    id: `${SAMPLE_PREFIX}refund-${ctx.suffix}`,
    company_id: pix.company_id,
    account_id: pix.account_id,
    charge_id: pix.charge_id,
    rtr_id: sampleId('D', ctx),
    value: 500,
    natureza: 'ORIGINAL',
    descricao: 'Test event: this refund does not exist',
    status,
    motivo: status === 'NAO_REALIZADO' ? 'Conta de destino encerrada' : null,
    correlation_id: `${SAMPLE_PREFIX}refund-${ctx.suffix}`,
    transaction_id: `${SAMPLE_PREFIX}refund-transaction-${ctx.suffix}`,
    requested_at: ctx.now,
    settled_at: ctx.now,
  };
}

// The refund events' payload as devolution-settlement.ts makes it: the refund and the Pix.
function refundPayload(ctx: SampleContext, status: PixDevolution['status']) {
  const pix = samplePix(ctx);
  return { refund: refundEventView(sampleRefund(ctx, pix, status)), pix: platformPixView(pix) };
}

const party = (ctx: SampleContext) => ({ company: companyView(ctx.party), account: accountEventView(ctx.party) });

export const pixInEventSamples: EventSamples = {
  'OPENPIX:CHARGE_COMPLETED': (ctx) => {
    const { pix, view } = paidCharge(ctx);
    return settlementPayloads(pix, ctx.party, view, null).completed!;
  },
  'OPENPIX:TRANSACTION_RECEIVED': (ctx) => {
    const { pix, view } = paidCharge(ctx);
    return settlementPayloads(pix, ctx.party, view, null).received;
  },
  'OPENPIX:TRANSACTION_REFUND_RECEIVED': (ctx) => refundPayload(ctx, 'DEVOLVIDO'),
  PIX_TRANSACTION_REFUND_SENT_CONFIRMED: (ctx) => ({ ...refundPayload(ctx, 'DEVOLVIDO'), ...party(ctx) }),
  PIX_TRANSACTION_REFUND_SENT_REJECTED: (ctx) => ({ ...refundPayload(ctx, 'NAO_REALIZADO'), ...party(ctx) }),
  // A Pix the company sent, returned to it.
  PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED: (ctx) => {
    const refund = sampleRefund(ctx, samplePix(ctx), 'DEVOLVIDO');
    return {
      refund: { ...refundEventView(refund), natureza: refund.natureza, transactionID: refund.transaction_id },
      ...party(ctx),
    };
  },
};
