// KYC onboardings, representatives and their one-time codes (src/kyc).
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export type KycStatus = 'PENDING' | 'SUBMITTED' | 'APPROVED' | 'REJECTED';
export type KycChannel = 'EMAIL' | 'PHONE';

export interface KycOnboardingsTable {
  id: string;
  company_id: string;
  correlation_id: string;
  tax_id: string;
  official_name: string;
  trade_name: string;
  status: KycStatus;
  // sealed (src/kyc/kyc-secrets.ts); found by link_token_hash, its SHA-256 (2026_11_26_0210)
  link_token: string;
  link_token_hash: string;
  redirect_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface KycRepresentativesTable {
  id: string;
  onboarding_id: string;
  company_id: string;
  tax_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  target_administrator: boolean;
  seq: Generated<number>;
  created_at: Date;
  updated_at: Date;
}

export interface KycCodeChannelsTable {
  representative_id: string;
  channel: KycChannel;
  verified_address: string | null;
  wrong_count: ColumnType<number, number | undefined, number>;
  last_wrong_at: Date | null;
  blocked_until: Date | null;
}

export interface KycCodesTable {
  id: string;
  representative_id: string;
  onboarding_id: string;
  channel: KycChannel;
  address: string;
  code_salt: string;
  code_hash: string;
  sandbox_code: string | null;
  sent_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

// The outbox of one-time code messages (2026_11_25_0400).
export type KycMessageStatus = 'PENDING' | 'SENT' | 'FAILED';

export interface KycCodeMessagesTable {
  id: string;
  company_id: string;
  code_id: string;
  channel: KycChannel;
  address: string;
  subject: string;
  // sealed (src/kyc/kyc-secrets.ts): it carries the code
  body: string | null;
  status: KycMessageStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date;
  lease_token: string | null;
  lease_until: Date | null;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

export interface KycTables {
  kyc_onboardings: KycOnboardingsTable;
  kyc_representatives: KycRepresentativesTable;
  kyc_code_channels: KycCodeChannelsTable;
  kyc_codes: KycCodesTable;
  kyc_code_messages: KycCodeMessagesTable;
}

export type KycOnboardingRow = Selectable<KycOnboardingsTable>;
export type NewKycOnboarding = Insertable<KycOnboardingsTable>;
export type KycRepresentativeRow = Selectable<KycRepresentativesTable>;
export type NewKycRepresentative = Insertable<KycRepresentativesTable>;
export type KycCodeChannelRow = Selectable<KycCodeChannelsTable>;
export type KycCodeRow = Selectable<KycCodesTable>;
export type NewKycCode = Insertable<KycCodesTable>;
export type KycCodeMessageRow = Selectable<KycCodeMessagesTable>;
export type NewKycCodeMessage = Insertable<KycCodeMessagesTable>;
