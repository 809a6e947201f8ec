// Tables of outgoing payments. Owned by the payments (money out) area.
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { components } from '../../../generated/platform.types';
import type { Destination } from '../documents/party';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

type PaymentAnswer = components['schemas']['Payment'];

// What the caller sent to address a payment, echoed back in its Payment answer.
export type PaymentRequestEcho = Pick<
  PaymentAnswer,
  'destinationAlias' | 'destinationAliasType' | 'qrCode' | 'boletoBarcode' | 'holder' | 'psp' | 'account'
>;

// The caller's key/value data stored with a payment.
export type PaymentMetadata = NonNullable<components['schemas']['PaymentCreatePixKey']['metadata']>;

export type PaymentType = 'PIX_KEY' | 'QR_CODE' | 'MANUAL' | 'BOLETO';
export type PaymentStatus = 'CREATED' | 'APPROVED' | 'CONFIRMED' | 'FAILED' | 'DENIED';

export interface PaymentsTable {
  id: string;
  company_id: string;
  account_id: string;
  correlation_id: string;
  type: PaymentType;
  status: PaymentStatus;
  value: number;
  request_hash: string;
  request: Json<PaymentRequestEcho>;
  destination: Json<Destination>;
  comment: string | null;
  metadata: NullableJson<PaymentMetadata>;
  end_to_end_id: string | null;
  transaction_id: string | null;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

export interface PaymentsTables {
  payments: PaymentsTable;
}

export type PaymentRow = Selectable<PaymentsTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;
