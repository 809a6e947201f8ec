// Tables of Pix Automático: recurrence locations, recurrences, confirmation requests and
// recurring charges. Owned by the recurrences area (src/recurrences).
// The JSON columns hold the standard's own shapes (generated/pix.types.ts).
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { components } from '../../../generated/pix.types';

type S = components['schemas'];

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'REJEITADA' | 'ACEITA' | 'EXPIRADA' | 'CANCELADA';
export type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type RecJourney = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4' | 'AGUARDANDO_DEFINICAO';

export interface StatusChange<T extends string = string> {
  status: T;
  data: string;
}

// A recurrence as stored: what RecGerada shows of the request (the receiver named by the
// company), and the journey data of the request or revision.
export type RecBody = Pick<S['RecGerada'], 'vinculo' | 'calendario' | 'valor' | 'recebedor' | 'politicaRetentativa'> &
  S['RecAtivacaoSolicitada'];
export type RecPayer = NonNullable<S['DadosPagadorRec']['pagador']>;
export type RecEnd = NonNullable<S['RecEncerramento']['encerramento']>;
// A confirmation request as stored: the request's fields and the payload it carried.
export type RecRequestBody = Pick<S['SolicRecSolicitada'], 'calendario' | 'destinatario'> & {
  recPayload: S['RecPayload'];
};
// A recurring charge as stored: what CobRGerada shows of the request.
export type CobRBody = Pick<S['CobRGerada'], 'infoAdicional' | 'calendario' | 'valor' | 'ajusteDiaUtil' | 'recebedor'> &
  S['DadosDevedorRecorrencia'];
export type CobREnd = NonNullable<S['CobRAtualizacao']['encerramento']>;
export type CobRAttempt = NonNullable<S['CobRTentativas']['tentativas']>[number];
export type CobRPix = NonNullable<S['CobRCompleta']['pix']>[number];

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
  body: Json<RecBody>;
  history: Json<StatusChange<RecStatus>[]>;
  pagador: NullableJson<RecPayer>;
  encerramento: NullableJson<RecEnd>;
  created_at: Date;
  updated_at: Date;
}

export interface RecRequestsTable {
  id: string;
  company_id: string;
  id_rec: string;
  status: SolicRecStatus;
  body: Json<RecRequestBody>;
  history: Json<StatusChange<SolicRecStatus>[]>;
  expires_at: Date;
  created_at: Date;
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
  body: Json<CobRBody>;
  history: Json<StatusChange<CobRStatus>[]>;
  attempts: Json<CobRAttempt[]>;
  encerramento: NullableJson<CobREnd>;
  pix: NullableJson<CobRPix[]>;
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
