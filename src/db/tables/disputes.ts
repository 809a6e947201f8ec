// Tables of disputes (src/disputes).
import type { ColumnType, Selectable } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

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

export interface DisputesTables {
  disputes: DisputesTable;
}

export type Dispute = Selectable<DisputesTable>;
