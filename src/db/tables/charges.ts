// Tables of charges (one model behind both APIs), their revisions and payload locations.
// Owned by the charges area. Received Pix and devolutions live in tables/pixin.ts.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { BatchItemProblem, BatchItemRequest, PlatformSettings, StoredChargeBody } from '../documents/charge-body';
import { columnsOf } from '../columns';

type Json<T> = ColumnType<T, string, string>;

export type ChargeKind = 'cob' | 'cobv';
export type PlatformChargeType = 'DYNAMIC' | 'OVERDUE' | 'BOLETO';
export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface LocationsTable {
  id: Generated<number>;
  company_id: string;
  kind: ChargeKind;
  token: string;
  charge_id: string | null;
  created_at: Date;
  // Set once the location served a charge (its payload then answers 410 when it serves none).
  linked_once: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface ChargesTable {
  id: string;
  company_id: string;
  account_id: string;
  kind: ChargeKind;
  platform_type: PlatformChargeType;
  txid: string;
  correlation_id: string | null;
  status: ChargeStatus;
  revision: ColumnType<number, number | undefined, number>;
  value: number;
  pix_key: string;
  location_id: number | null;
  payment_link_id: string;
  customer_id: string | null;
  body: Json<StoredChargeBody>;
  platform: ColumnType<PlatformSettings, string | undefined, string>;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
  due_date: string | null;
  validity_after_due: number | null;
  paid_at: Date | null;
  expired_event_at: Date | null;
  // When it stops being payable (charge-model's payableUntilOf): the one expiry rule.
  payable_until: Date;
  // The lotecobv batch that created the charge, if any.
  lote_id: ColumnType<number | null, number | null | undefined, number | null>;
}

// Every column of a charge (a column added to the table must be added here: the compiler says so).
export const CHARGE_ROW_COLUMNS = columnsOf<ChargesTable>()([
  'id',
  'company_id',
  'account_id',
  'kind',
  'platform_type',
  'txid',
  'correlation_id',
  'status',
  'revision',
  'value',
  'pix_key',
  'location_id',
  'payment_link_id',
  'customer_id',
  'body',
  'platform',
  'created_at',
  'updated_at',
  'expires_at',
  'due_date',
  'validity_after_due',
  'paid_at',
  'expired_event_at',
  'payable_until',
  'lote_id',
]);

export interface ChargeRevisionsTable {
  charge_id: string;
  revision: number;
  status: ChargeStatus;
  body: Json<StoredChargeBody>;
  created_at: Date;
}

export type CobvBatchItemStatus = 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA';

export interface CobvBatchesTable {
  company_id: string;
  id: number;
  description: string;
  created_at: Date;
  updated_at: Date;
}

export interface CobvBatchItemsTable {
  company_id: string;
  batch_id: number;
  position: number;
  txid: string;
  status: CobvBatchItemStatus;
  request: Json<BatchItemRequest>;
  problem: ColumnType<BatchItemProblem | null, string | null | undefined, string | null>;
  created_at: Date;
}

// Charges made per company, day (UTC) and kind, for the days rolled up (lists count from them).
export interface ChargeDayCountsTable {
  company_id: string;
  kind: ChargeKind;
  day: string;
  n: number;
}

export interface ChargeCountMarksTable {
  company_id: string;
  rolled_through: string;
}

export interface ChargesTables {
  locations: LocationsTable;
  charges: ChargesTable;
  charge_revisions: ChargeRevisionsTable;
  cobv_batches: CobvBatchesTable;
  cobv_batch_items: CobvBatchItemsTable;
  charge_day_counts: ChargeDayCountsTable;
  charge_count_marks: ChargeCountMarksTable;
}

export type Location = Selectable<LocationsTable>;
export type Charge = Selectable<ChargesTable>;
export type NewCharge = Insertable<ChargesTable>;
export type ChargeUpdate = Updateable<ChargesTable>;
export type ChargeRevision = Selectable<ChargeRevisionsTable>;
export type CobvBatch = Selectable<CobvBatchesTable>;
export type CobvBatchItem = Selectable<CobvBatchItemsTable>;
