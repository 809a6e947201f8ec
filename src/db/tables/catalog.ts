// Tables of customers and static QR codes. Owned by the catalog area.
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;

// A customer's postal address as stored (the fields of the spec's Address, all optional).
export interface StoredAddress {
  zipcode?: string;
  street?: string;
  number?: string;
  neighborhood?: string;
  city?: string;
  state?: string;
  complement?: string;
  country?: string;
}

export interface CustomersTable {
  id: string;
  company_id: string;
  // Unique per company; generated (a UUID) when the client sends none.
  correlation_id: string;
  name: string;
  // CPF (11 digits) or CNPJ (14 characters, alphanumeric allowed), unmasked and uppercase;
  // unique per company when present. Charge customers may have none (name+email, name+phone).
  tax_id: string | null;
  email: string | null;
  // +55DDNNNNNNNN(N)
  phone: string | null;
  address: NullableJson<StoredAddress>;
  created_at: Date;
  updated_at: Date;
}

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

export interface CatalogTables {
  customers: CustomersTable;
  static_qrcodes: StaticQrCodesTable;
}

export type CustomerRow = Selectable<CustomersTable>;
export type NewCustomerRow = Insertable<CustomersTable>;
export type CustomerRowUpdate = Updateable<CustomersTable>;
export type StaticQrCodeRow = Selectable<StaticQrCodesTable>;
export type NewStaticQrCodeRow = Insertable<StaticQrCodesTable>;
