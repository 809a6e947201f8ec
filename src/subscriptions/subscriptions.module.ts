// The subscriptions and installments services; the charge generation job
// (SubscriptionsService.generateDue) is a row of src/job-table.ts.
import type { Kysely } from 'kysely';
import type { PlatformChargesService } from '../charges/platform/platform-charges.service';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { RecurrencesServices } from '../recurrences/recurrences.module';
import { InstallmentsService } from './installments.service';
import { SubscriptionsService } from './subscriptions.service';

export interface SubscriptionsServices {
  subscriptions: SubscriptionsService;
  installments: InstallmentsService;
}

export interface SubscriptionsDependencies {
  db: Kysely<Database>;
  clock: Clock;
  charges: PlatformChargesService;
  recurrences: RecurrencesServices;
  publicUrl: string;
}

export function buildSubscriptionsServices({
  db,
  clock,
  charges,
  recurrences,
  publicUrl,
}: SubscriptionsDependencies): SubscriptionsServices {
  const subscriptions = new SubscriptionsService(db, clock, charges, recurrences, publicUrl);
  return { subscriptions, installments: new InstallmentsService(db, clock, recurrences.cobrs) };
}

export { subscriptionEventSamples } from './subscriptions.service';
