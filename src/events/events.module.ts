// The events area's service (the events API) and its retention job: events older than the
// retention period on their company's clock are deleted with their deliveries and attempts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import { pruneEvents } from './events.repository';
import { EventsService } from './events.service';

export const EVENT_RETENTION_JOB = 'events.retention';
const RETENTION_INTERVAL_MS = 10 * 60_000;
// Events deleted per statement; a run goes on until a statement deletes fewer.
const PRUNE_BATCH = 1000;

export function buildEventsService(
  config: Pick<Config, 'sandbox' | 'events'>,
  db: Kysely<Database>,
  jobs: Scheduler,
): EventsService {
  // Tests: jobs.runNow('events.retention').
  jobs.register(EVENT_RETENTION_JOB, RETENTION_INTERVAL_MS, async () => {
    while ((await pruneEvents(db, config.events.retentionDays, PRUNE_BATCH)) === PRUNE_BATCH);
  });
  return new EventsService(db, config.sandbox ? 'TESTING' : 'PRODUCTION');
}
