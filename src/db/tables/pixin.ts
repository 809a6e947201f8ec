// Tables of received Pix and their devolutions. Owned by the pix-in area.
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { components } from '../../../generated/pix.types';

type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

export type WithdrawalKind = 'SAQUE' | 'TROCO';
// ORIGINAL and RETIRADA are asked for by the receiver; the MED natures are the platform's
// returns under the special return mechanism (a funds recovery in favour of the payer).
export type DevolucaoNatureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE';
export type RequestedNatureza = 'ORIGINAL' | 'RETIRADA';
export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface PixReceivedTable {
  end_to_end_id: string;
  company_id: string;
  account_id: string;
  charge_id: string | null;
  txid: string | null;
  pix_key: string;
  value: number;
  withdrawal_kind: WithdrawalKind | null;
  withdrawal_value: ColumnType<number, number | undefined, number>;
  // The standard's componentesValor of the Pix, as GET /pix/v2/pix/{e2eid} shows it.
  components: NullableJson<components['schemas']['Pix']['componentesValor']>;
  payer_name: string;
  payer_tax_id: string;
  payer_ispb: string;
  payer_company_id: string | null;
  payer_account_id: string | null;
  info_pagador: string | null;
  transaction_id: string;
  settled_at: Date;
}

export interface PixDevolutionsTable {
  end_to_end_id: string;
  id: string;
  company_id: string;
  account_id: string;
  charge_id: string | null;
  rtr_id: string;
  value: number;
  natureza: DevolucaoNatureza;
  descricao: string | null;
  status: DevolucaoStatus;
  motivo: string | null;
  correlation_id: string | null;
  transaction_id: string | null;
  requested_at: Date;
  settled_at: Date | null;
}

export interface PixInTables {
  pix_received: PixReceivedTable;
  pix_devolutions: PixDevolutionsTable;
}

export type PixReceived = Selectable<PixReceivedTable>;
export type NewPixReceived = Insertable<PixReceivedTable>;
export type PixDevolution = Selectable<PixDevolutionsTable>;
export type NewPixDevolution = Insertable<PixDevolutionsTable>;
export type PixDevolutionUpdate = Updateable<PixDevolutionsTable>;
