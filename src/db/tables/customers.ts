// Tables of customers (src/customers).
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

export interface CustomersTables {
  customers: CustomersTable;
}

export type CustomerRow = Selectable<CustomersTable>;
export type NewCustomerRow = Insertable<CustomersTable>;
export type CustomerRowUpdate = Updateable<CustomersTable>;
