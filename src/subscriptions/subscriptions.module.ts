// The subscriptions and installments services and the charge generation job.
import type { Kysely } from 'kysely';
import type { PlatformChargesService } from '../charges/platform/platform-charges.service';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import type { RecurrencesServices } from '../recurrences/recurrences.module';
import { InstallmentsService } from './installments.service';
import {
  SUBSCRIPTION_CHARGES_INTERVAL_MS,
  SUBSCRIPTION_CHARGES_JOB,
  SubscriptionsService,
} from './subscriptions.service';

export interface SubscriptionsServices {
  subscriptions: SubscriptionsService;
  installments: InstallmentsService;
}

export function buildSubscriptionsServices(
  db: Kysely<Database>,
  clock: Clock,
  jobs: Scheduler,
  charges: PlatformChargesService,
  recurrences: RecurrencesServices,
  publicUrl: string,
): SubscriptionsServices {
  const subscriptions = new SubscriptionsService(db, clock, charges, recurrences, publicUrl);
  // Tests: jobs.runNow('subscriptions.charges').
  jobs.register(SUBSCRIPTION_CHARGES_JOB, SUBSCRIPTION_CHARGES_INTERVAL_MS, async () => {
    await subscriptions.generateDue();
  });
  return { subscriptions, installments: new InstallmentsService(db, clock, recurrences.cobrs) };
}

export { subscriptionEventSamples } from './subscriptions.service';
