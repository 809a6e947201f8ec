// Tables of companies, the audit of their feature changes and applications (src/identity).
import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

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

export interface IdentityTables {
  companies: CompaniesTable;
  company_feature_changes: CompanyFeatureChangesTable;
  applications: ApplicationsTable;
}

export type Company = Selectable<CompaniesTable>;
export type NewCompany = Insertable<CompaniesTable>;
export type CompanyFeatureChange = Selectable<CompanyFeatureChangesTable>;
export type NewCompanyFeatureChange = Insertable<CompanyFeatureChangesTable>;
export type Application = Selectable<ApplicationsTable>;
export type NewApplication = Insertable<ApplicationsTable>;
export type ApplicationUpdate = Updateable<ApplicationsTable>;
