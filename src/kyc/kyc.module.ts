// The KYC services, built once per process; the delivery of one-time code messages
// (KycServices.kycDelivery) runs as a row of the job table (src/job-table.ts).
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type Config, secretsBoxOf } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { KycCodesService } from './codes.service';
import { KycMessageDelivery } from './delivery.service';
import { KycOnboardingService } from './onboarding.service';
import { type MessageSenders, SmtpSender } from './smtp-sender';

export interface KycServices {
  kycOnboardings: KycOnboardingService;
  kycCodes: KycCodesService;
  kycDelivery: KycMessageDelivery;
}

export interface KycDependencies {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
}

export function buildKycServices({ config, db, clock, log }: KycDependencies): KycServices {
  // E-mail through SMTP when configured; the phone channel has no sender yet.
  const senders: MessageSenders = config.smtp ? { EMAIL: new SmtpSender(config.smtp) } : {};
  const secrets = secretsBoxOf(config);
  const delivery = new KycMessageDelivery(db, senders, config.sandbox, log.child({ area: 'kyc' }), secrets);
  return {
    kycOnboardings: new KycOnboardingService(db, clock, config.publicUrl, secrets),
    kycCodes: new KycCodesService(db, clock, config.sandbox, secrets),
    kycDelivery: delivery,
  };
}

export { onboardingEventSamples } from './onboarding.service';
export { KYC_MESSAGES_JOB } from './delivery.service';
