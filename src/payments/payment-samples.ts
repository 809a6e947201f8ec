// Sample payloads of the movement events for test events: a made-up PIX_KEY payment of the
// company's account to a made-up person, through the views the real events use.
import { type EventSamples, SAMPLE_PREFIX, type SampleContext } from '../events/events.service';
import type { PaymentStatus } from '../db/schema';
import type { PaymentWithPayer } from './payments.repository';
import { NOT_APPROVED_IN_TIME } from './payments.service';
import { paymentTransactionView, paymentView } from './payments.view';

const DESTINATION_KEY = 'destinatario.teste@example.com';

function samplePayment(ctx: SampleContext, status: PaymentStatus, failure?: { code: string; reason: string }) {
  const settled = status === 'CONFIRMED' || status === 'FAILED';
  const row: PaymentWithPayer = {
    id: `${SAMPLE_PREFIX}${ctx.suffix}`,
    company_id: ctx.party.company_id,
    account_id: ctx.party.account_id,
    correlation_id: `${SAMPLE_PREFIX}payment-${ctx.suffix}`,
    type: 'PIX_KEY',
    status,
    value: 1000,
    request_hash: '',
    request: { destinationAlias: DESTINATION_KEY, destinationAliasType: 'EMAIL' },
    destination: {
      where: 'outside',
      name: 'Destinatario de Teste',
      taxId: '12345678909',
      taxIdType: 'BR:CPF',
      ispb: '99999999',
      bank: 'Banco de Teste',
      branch: '0001',
      account: '1234567',
      accountType: 'CACC',
      pixKey: DESTINATION_KEY,
      pixKeyType: 'EMAIL',
    },
    comment: 'Test event: this payment does not exist',
    metadata: null,
    end_to_end_id: settled
      ? `E${'9'.repeat(8)}${ctx.now.toISOString().replace(/\D/g, '').slice(0, 12)}TEST${ctx.suffix.slice(0, 7).toUpperCase()}`
      : null,
    transaction_id: status === 'CONFIRMED' ? `${SAMPLE_PREFIX}transaction-${ctx.suffix}` : null,
    failure_code: failure?.code ?? null,
    failure_reason: failure?.reason ?? null,
    created_at: ctx.now,
    updated_at: ctx.now,
    settled_at: settled ? ctx.now : null,
    payer_branch: ctx.party.branch,
    payer_account_number: ctx.party.account_number,
    payer_account_status: 'OPEN',
    payer_tax_id: ctx.party.company_tax_id,
    payer_official_name: ctx.company.official_name,
    payer_trade_name: ctx.company.trade_name,
  };
  return row;
}

const FAILURE = { code: 'AC03', reason: 'Creditor account number invalid or missing' };
const EXPIRED = NOT_APPROVED_IN_TIME;

// As payments.service.ts records them: confirmed and failed with the transaction, removed with
// the reason.
export const paymentEventSamples: EventSamples = {
  'OPENPIX:MOVEMENT_CONFIRMED': (ctx) => {
    const row = samplePayment(ctx, 'CONFIRMED');
    return { payment: paymentView(row), transaction: paymentTransactionView(row)! };
  },
  'OPENPIX:MOVEMENT_FAILED': (ctx) => {
    const row = samplePayment(ctx, 'FAILED', FAILURE);
    return {
      payment: paymentView(row),
      transaction: paymentTransactionView(row)!,
      error: `${FAILURE.code}: ${FAILURE.reason}`,
    };
  },
  'OPENPIX:MOVEMENT_REMOVED': (ctx) => {
    const row = samplePayment(ctx, 'DENIED', { code: 'EXPIRED', reason: EXPIRED });
    return { payment: paymentView(row), error: EXPIRED };
  },
};
