// The subscriptions service and its charge generation job.
import type { Kysely } from 'kysely';
import type { PlatformChargesService } from '../charges/platform/platform-charges.service';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../lib/clock';
import {
  SUBSCRIPTION_CHARGES_INTERVAL_MS,
  SUBSCRIPTION_CHARGES_JOB,
  SubscriptionsService,
} from './subscriptions.service';

export function buildSubscriptionsService(
  db: Kysely<Database>,
  clock: Clock,
  jobs: Scheduler,
  charges: PlatformChargesService,
  publicUrl: string,
): SubscriptionsService {
  const service = new SubscriptionsService(db, clock, charges, publicUrl);
  // Tests: jobs.runNow('subscriptions.charges').
  jobs.register(SUBSCRIPTION_CHARGES_JOB, SUBSCRIPTION_CHARGES_INTERVAL_MS, async () => {
    await service.generateDue();
  });
  return service;
}
