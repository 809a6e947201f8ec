// Tables of static QR codes (src/qrcodes).
import type { Insertable, Selectable } from 'kysely';

export interface StaticQrCodesTable {
  id: string;
  company_id: string;
  account_id: string;
  // Unique per company among the codes not deleted; generated (a UUID) when absent.
  correlation_id: string;
  name: string;
  // Fixed amount in cents; null: the payer chooses the amount.
  value: number | null;
  comment: string | null;
  pix_key: string;
  // The txid of the BR Code (field 62.05): 25 random letters and digits.
  identifier: string;
  payment_link_id: string;
  br_code: string;
  created_at: Date;
  updated_at: Date;
  // Set by DELETE: a deleted code is no longer found by the API.
  deleted_at: Date | null;
}

export interface QrCodesTables {
  static_qrcodes: StaticQrCodesTable;
}

export type StaticQrCodeRow = Selectable<StaticQrCodesTable>;
export type NewStaticQrCodeRow = Insertable<StaticQrCodesTable>;
