// Tables of partners' pre-registrations and their applications (src/partners).
import type { ColumnType, Insertable, Selectable } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

export interface PreRegistrationUser {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  taxID?: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' };
}

export interface PartnerPreRegistrationsTable {
  id: string;
  partner_company_id: string;
  tax_id: string;
  tax_id_type: 'BR:CPF' | 'BR:CNPJ';
  name: string;
  website: string | null;
  user: Json<PreRegistrationUser>;
  company_id: string | null;
  affiliated_at: Date | null;
  created_at: Date;
}

export interface PartnerApplicationsTable {
  application_id: string;
  pre_registration_id: string;
  name: string;
  type: 'API' | 'PLUGIN' | 'ORACLE';
  created_at: Date;
}

export interface PartnersTables {
  partner_pre_registrations: PartnerPreRegistrationsTable;
  partner_applications: PartnerApplicationsTable;
}

export type PreRegistrationRow = Selectable<PartnerPreRegistrationsTable>;
export type NewPreRegistration = Insertable<PartnerPreRegistrationsTable>;
