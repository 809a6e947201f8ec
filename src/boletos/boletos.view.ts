// The public reference's BoletoTransaction from a row (values in cents; the fine, interest and
// discount only when there was one).
import type { components } from '../../generated/platform.types';
import type { BoletoTransactionWithSource } from './boletos.repository';

export type BoletoTransactionView = components['schemas']['BoletoTransaction'];

const positive = (key: string, v: number | null) => (v ? { [key]: v } : {});

export function boletoTransactionView(row: BoletoTransactionWithSource): BoletoTransactionView {
  const view: BoletoTransactionView = {
    boletoTransactionID: row.id,
    type: row.type,
    status: row.status,
    value: row.value,
    fee: row.fee,
    createdAt: row.created_at.toISOString(),
    ...(row.settled_at ? { settledAt: row.settled_at.toISOString() } : {}),
    ...positive('finesValue', row.fines_value),
    ...positive('interestsValue', row.interests_value),
    ...positive('discountValue', row.discount_value),
  };
  if (row.type === 'BOLETO_IN' && row.charge_value !== null)
    view.charge = {
      ...(row.charge_correlation_id ? { correlationID: row.charge_correlation_id } : {}),
      value: row.charge_value,
      // A charge paid by its boleto stays paid.
      status: 'COMPLETED',
      boletoBarcode: row.barcode,
      boletoDigitable: row.digitable_line,
    };
  if (row.type === 'BOLETO_OUT' && row.payment_correlation_id !== null)
    view.payment = {
      correlationID: row.payment_correlation_id,
      boletoBarcode: row.barcode,
      boletoDigitable: row.digitable_line,
    };
  return view;
}
