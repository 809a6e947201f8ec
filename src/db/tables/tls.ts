// Mutual TLS: certificate authorities, client certificates of applications, and companies'
// webhook TLS settings (2026_11_26_0600).
import type { Insertable, Selectable } from 'kysely';

export interface TlsAuthoritiesTable {
  name: string;
  certificate_pem: string;
  // src/lib/secret-box.ts, place `tls-authority:<name>`.
  private_key_sealed: string;
  created_at: Date;
}

export type CertificateOrigin = 'CSR' | 'GENERATED' | 'UPLOADED';

export interface ApplicationCertificatesTable {
  id: string;
  company_id: string;
  application_id: string;
  thumbprint: string;
  serial_number: string;
  subject: string;
  issuer: string;
  certificate_pem: string;
  origin: CertificateOrigin;
  not_before: Date;
  not_after: Date;
  created_at: Date;
  revoked_at: Date | null;
  revocation_reason: string | null;
}

export interface CompanyWebhookTlsTable {
  company_id: string;
  ca_bundle_pem: string | null;
  probe_receivers: boolean;
  updated_at: Date;
}

export interface TlsTables {
  tls_authorities: TlsAuthoritiesTable;
  application_certificates: ApplicationCertificatesTable;
  company_webhook_tls: CompanyWebhookTlsTable;
}

export type TlsAuthority = Selectable<TlsAuthoritiesTable>;
export type ApplicationCertificate = Selectable<ApplicationCertificatesTable>;
export type NewApplicationCertificate = Insertable<ApplicationCertificatesTable>;
export type CompanyWebhookTls = Selectable<CompanyWebhookTlsTable>;
