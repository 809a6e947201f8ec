// Companies, bank accounts, applications, the sandbox clock and signing keys.
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { StoredPublicJwk } from '../../lib/jws';

type Json<T> = ColumnType<T, string, string>;
type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

export interface CompaniesTable {
  id: string;
  name: string;
  tax_id: string;
  official_name: string;
  trade_name: string;
  features: Json<string[]>;
  created_at: Date;
  // This company's sandbox clock: milliseconds ahead of real time (src/lib/clock.ts).
  clock_offset_ms: ColumnType<number, number | undefined, number>;
}

export interface BankAccountsTable {
  id: string;
  company_id: string;
  is_default: boolean;
  branch: string;
  account_number: string;
  account_name: string;
  status: 'OPEN' | 'CLOSED';
  created_at: Date;
  closed_at: Date | null;
  // E-mail of the account holder user (money-out migration); filters GET /account.
  holder_email: ColumnType<string | null, string | null | undefined, string | null>;
  // Set on a subaccount: the company account it belongs to (subaccounts migration).
  parent_account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApplicationsTable {
  id: string;
  company_id: string;
  account_id: string;
  name: string;
  type: 'API' | 'MASTER';
  is_active: boolean;
  client_id: string;
  client_secret_hash: string;
  scopes: NullableJson<string[]>;
  allowed_ips: NullableJson<string[]>;
  created_at: Date;
  removed_at: Date | null;
}

export interface SandboxClockTable {
  id: number;
  offset_ms: number;
}

export interface SigningKeysTable {
  kid: string;
  purpose: string;
  algorithm: string;
  private_key: string;
  public_jwk: NullableJson<StoredPublicJwk>;
  certificate: string | null;
  created_at: Date;
  retired_at: Date | null;
}

// The audit of feature changes (2026_11_25_0410).
export interface CompanyFeatureChangesTable {
  id: string;
  company_id: string;
  actor: 'OPERATOR' | 'SANDBOX';
  application_id: string | null;
  request_id: string;
  reason: string | null;
  features_before: Json<string[]>;
  features_after: Json<string[]>;
  changed_at: Date;
}

export interface CoreTables {
  companies: CompaniesTable;
  company_feature_changes: CompanyFeatureChangesTable;
  bank_accounts: BankAccountsTable;
  applications: ApplicationsTable;
  sandbox_clock: SandboxClockTable;
  signing_keys: SigningKeysTable;
}

export type Company = Selectable<CompaniesTable>;
export type NewCompany = Insertable<CompaniesTable>;
export type CompanyFeatureChange = Selectable<CompanyFeatureChangesTable>;
export type NewCompanyFeatureChange = Insertable<CompanyFeatureChangesTable>;
export type BankAccount = Selectable<BankAccountsTable>;
export type NewBankAccount = Insertable<BankAccountsTable>;
export type Application = Selectable<ApplicationsTable>;
export type NewApplication = Insertable<ApplicationsTable>;
export type ApplicationUpdate = Updateable<ApplicationsTable>;
export type SigningKey = Selectable<SigningKeysTable>;
