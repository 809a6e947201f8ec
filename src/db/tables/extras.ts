// Tables of disputes, funds recoveries (MED), exclusive cashbacks and subscriptions.
// Owned by the disputes / MED / cashback / subscriptions area.
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { components } from '../../../generated/platform.types';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type DisputeStatus = 'CREATED' | 'IN_REVIEW' | 'ACCEPTED' | 'REJECTED' | 'CANCELED';

export interface StoredEvidence {
  url: string;
  correlationID?: string;
  description?: string;
}

export interface DisputesTable {
  id: string;
  company_id: string;
  account_id: string;
  transaction_id: string;
  end_to_end_id: string;
  status: DisputeStatus;
  type: string;
  name: string | null;
  email: string | null;
  phone_number: string | null;
  value: number;
  held: number;
  reason: string;
  evidences: Json<StoredEvidence[]>;
  created_at: Date;
  updated_at: Date;
}

export type FundsRecoveryStatus = 'CREATED' | 'AWAITING_ANALYSIS' | 'COMPLETED' | 'CANCELLED';

export interface StoredRecoveryEvent {
  type: string;
  status: FundsRecoveryStatus;
  description: string;
  createdAt: string;
}

export interface FundsRecoveriesTable {
  id: string;
  company_id: string;
  account_id: string;
  transaction_id: string;
  end_to_end_id: string;
  situation_type: string;
  details: string;
  status: FundsRecoveryStatus;
  direction: string;
  reporter_participant: string;
  events: Json<StoredRecoveryEvent[]>;
  // The account that received the Pix when it is on this server (null: another institution).
  receiver_company_id: string | null;
  receiver_account_id: string | null;
  // Left to recover at opening; blocked by the analysis; returned to the payer.
  value: ColumnType<number, number | undefined, number>;
  blocked: ColumnType<number, number | undefined, number>;
  recovered: ColumnType<number, number | undefined, number>;
  analysis_result: FundsRecoveryAnalysisResult | null;
  // The return's id (rtrId) once the recovered value was sent back.
  return_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type FundsRecoveryAnalysisResult = 'AGREED' | 'DISAGREED';

export type CashbackStatus = 'PENDING' | 'USED';

export interface CashbacksTable {
  id: string;
  company_id: string;
  tax_id: string;
  value: number;
  status: CashbackStatus;
  used_transaction_id: string | null;
  used_at: Date | null;
  // What was paid back to the customer, and the return (rtrId) that paid it.
  paid_value: number | null;
  return_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type SubscriptionStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED' | 'CANCELED';
// The Pix Automatico options of a PIX_RECURRING subscription, with their defaults applied.
export type SubscriptionPixRecurring = Required<
  Pick<
    NonNullable<components['schemas']['SubscriptionCreatePayload']['pixRecurringOptions']>,
    'journey' | 'retryPolicy'
  >
> &
  Pick<NonNullable<components['schemas']['SubscriptionCreatePayload']['pixRecurringOptions']>, 'minimumValue'>;

export interface SubscriptionsTable {
  id: string;
  global_id: string;
  company_id: string;
  correlation_id: string;
  name: string | null;
  comment: string | null;
  value: number;
  customer_id: string | null;
  // The customer as the charge answers show it (the platform's Customer).
  customer: Json<components['schemas']['Customer']>;
  type: 'PIX_RECURRING' | 'RECURRENT';
  frequency: 'WEEKLY' | 'MONTHLY' | 'BIMONTHLY' | 'TRIMONTHLY' | 'SEMIANNUALLY' | 'ANNUALLY';
  charge_type: ColumnType<'DYNAMIC' | 'OVERDUE', 'DYNAMIC' | 'OVERDUE' | undefined, never>;
  day_generate_charge: number;
  day_due: number;
  installment_count: number | null;
  charges_generated: ColumnType<number, number | undefined, number>;
  interests: NullableJson<{ value: number }>;
  fines: NullableJson<{ value: number }>;
  additional_info: NullableJson<Array<{ key: string; value: string }>>;
  status: SubscriptionStatus;
  next_charge_at: Date | null;
  payment_link_id: string;
  // PIX_RECURRING: the recurrence (rec) it created and its options.
  id_rec: ColumnType<string | null, string | null | undefined, string | null>;
  pix_recurring: NullableJson<SubscriptionPixRecurring>;
  created_at: Date;
  updated_at: Date;
}

// The installments: one row per generation of the schedule.
export interface SubscriptionChargesTable {
  subscription_id: string;
  installment: number;
  global_id: string;
  value: number;
  // The schedule's date of this installment (created_at is when the job made it).
  scheduled_at: Date;
  // RECURRENT: the platform charge; PIX_RECURRING: the recurring charge of its cycle (null when
  // it could not be made).
  charge_correlation_id: string | null;
  cobr_txid: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Date;
}

export interface ExtrasTables {
  disputes: DisputesTable;
  funds_recoveries: FundsRecoveriesTable;
  cashbacks: CashbacksTable;
  subscriptions: SubscriptionsTable;
  subscription_charges: SubscriptionChargesTable;
}

export type Dispute = Selectable<DisputesTable>;
export type FundsRecovery = Selectable<FundsRecoveriesTable>;
export type NewFundsRecovery = Insertable<FundsRecoveriesTable>;
export type FundsRecoveryUpdate = Updateable<FundsRecoveriesTable>;
export type Cashback = Selectable<CashbacksTable>;
export type Subscription = Selectable<SubscriptionsTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SubscriptionInstallment = Selectable<SubscriptionChargesTable>;
