// Tables of funds recoveries (MED, the platform's /api/v1/funds-recovery; src/funds-recovery).
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

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

export interface FundsRecoveryTables {
  funds_recoveries: FundsRecoveriesTable;
}

export type FundsRecovery = Selectable<FundsRecoveriesTable>;
export type NewFundsRecovery = Insertable<FundsRecoveriesTable>;
export type FundsRecoveryUpdate = Updateable<FundsRecoveriesTable>;
