// The KYC services, built once per process, and the delivery job of one-time code messages.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type Config, secretsBoxOf } from '../config';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import { KycCodesService } from './codes.service';
import { JOB_INTERVAL_MS, JOB_NAME, KycMessageDelivery } from './delivery.service';
import { KycOnboardingService } from './onboarding.service';
import { type MessageSenders, SmtpSender } from './smtp-sender';

export interface KycServices {
  onboardings: KycOnboardingService;
  codes: KycCodesService;
  delivery: KycMessageDelivery;
}

export function buildKycServices(
  config: Config,
  db: Kysely<Database>,
  clock: Clock,
  jobs: Scheduler,
  log: Logger,
): KycServices {
  // E-mail through SMTP when configured; the phone channel has no sender yet.
  const senders: MessageSenders = config.smtp ? { EMAIL: new SmtpSender(config.smtp) } : {};
  const secrets = secretsBoxOf(config);
  const delivery = new KycMessageDelivery(db, senders, config.sandbox, log.child({ area: 'kyc' }), secrets);
  // Hands the outbox's messages to their senders (tests: jobs.runNow('kyc-messages')).
  jobs.register(JOB_NAME, JOB_INTERVAL_MS, async () => {
    await delivery.runOnce();
  });
  return {
    onboardings: new KycOnboardingService(db, clock, config.publicUrl, secrets),
    codes: new KycCodesService(db, clock, config.sandbox, secrets),
    delivery,
  };
}

export { onboardingEventSamples } from './onboarding.service';
