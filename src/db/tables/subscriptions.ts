// Tables of subscriptions and their installments (src/subscriptions).
import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { components } from '../../../generated/platform.types';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

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

export interface SubscriptionsTables {
  subscriptions: SubscriptionsTable;
  subscription_charges: SubscriptionChargesTable;
}

export type Subscription = Selectable<SubscriptionsTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SubscriptionInstallment = Selectable<SubscriptionChargesTable>;
