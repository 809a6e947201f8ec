// Tables of Pix Automático: recurrence locations, recurrences, confirmation requests and
// recurring charges. Owned by the recurrences area (src/recurrences).
import type { ColumnType, Generated, Selectable } from 'kysely';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'REJEITADA' | 'ACEITA' | 'EXPIRADA' | 'CANCELADA';
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type RecJourney = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' | 'AGUARDANDO_DEFINICAO';

export interface StatusChange<S extends string = string> {
  status: S;
  data: string;
}

export interface RecLocationsTable {
  id: Generated<number>;
  company_id: string;
  token: string;
  id_rec: string | null;
  linked_once: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Date;
}

export interface RecurrencesTable {
  id_rec: string;
  company_id: string;
  status: RecStatus;
  journey: RecJourney;
  location_id: number | null;
  convenio: string | null;
  debtor_tax_id: string;
  body: Json<Record<string, any>>;
  history: Json<StatusChange<RecStatus>[]>;
  pagador: NullableJson<Record<string, unknown>>;
  encerramento: NullableJson<Record<string, unknown>>;
  created_at: Date;
  updated_at: Date;
}

export interface RecRequestsTable {
  id: string;
  company_id: string;
  id_rec: string;
  status: SolicRecStatus;
  body: Json<Record<string, any>>;
  history: Json<StatusChange<SolicRecStatus>[]>;
  expires_at: Date;
  created_at: Date;
}

export interface CobRAttempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG' | 'RIFL';
  endToEndId: string;
  status: 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';
  atualizacao: StatusChange[];
  rejeicao?: { codigo: string; descricao: string };
}

export interface RecurringChargesTable {
  id: string;
  company_id: string;
  account_id: string;
  id_rec: string;
  txid: string;
  status: CobRStatus;
  value: number;
  cycle: number;
  due_date: string;
  settlement_date: string;
  next_attempt_date: string | null;
  body: Json<Record<string, any>>;
  history: Json<StatusChange<CobRStatus>[]>;
  attempts: Json<CobRAttempt[]>;
  encerramento: NullableJson<Record<string, unknown>>;
  pix: NullableJson<Record<string, unknown>[]>;
  created_at: Date;
  updated_at: Date;
}

export interface RecurrencesTables {
  rec_locations: RecLocationsTable;
  recurrences: RecurrencesTable;
  rec_requests: RecRequestsTable;
  recurring_charges: RecurringChargesTable;
}

export type RecLocation = Selectable<RecLocationsTable>;
export type Recurrence = Selectable<RecurrencesTable>;
export type RecRequest = Selectable<RecRequestsTable>;
export type RecurringCharge = Selectable<RecurringChargesTable>;
