// Tables of account limits (src/limits).
import type { Selectable } from 'kysely';

export interface AccountLimitsTable {
  account_id: string;
  daytime_per_transaction: number;
  daytime_daily: number;
  nighttime_per_transaction: number;
  nighttime_daily: number;
  monthly: number;
  min_free_withdraw_value: number;
  withdraw_fee: number;
  updated_at: Date;
}

export interface LimitsTables {
  account_limits: AccountLimitsTable;
}

export type AccountLimitsRow = Selectable<AccountLimitsTable>;
