// The KYC services, built once per process.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import { KycCodesService } from './codes.service';
import { KycOnboardingService } from './onboarding.service';

export interface KycServices {
  onboardings: KycOnboardingService;
  codes: KycCodesService;
}

export function buildKycServices(config: Config, db: Kysely<Database>, clock: Clock): KycServices {
  return {
    onboardings: new KycOnboardingService(db, clock, config.publicUrl),
    codes: new KycCodesService(db, clock, config.sandbox),
  };
}
