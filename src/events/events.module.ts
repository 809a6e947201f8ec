// The events area's service (the events API) and what its retention job runs (a row of
// src/job-table.ts): events older than the retention period on their company's clock are
// deleted with their deliveries and attempts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { pruneEvents } from './events.repository';
import { EventsService } from './events.service';

export const EVENT_RETENTION_JOB = 'events.retention';
// Events deleted per statement; a run goes on until a statement deletes fewer.
const PRUNE_BATCH = 1000;

export interface EventsDependencies {
  config: Pick<Config, 'sandbox'>;
  db: Kysely<Database>;
}

export function buildEventsService({ config, db }: EventsDependencies): EventsService {
  return new EventsService(db, config.sandbox ? 'TESTING' : 'PRODUCTION');
}

export async function pruneOldEvents(db: Kysely<Database>, config: Pick<Config, 'events'>): Promise<void> {
  while ((await pruneEvents(db, config.events.retentionDays, PRUNE_BATCH)) === PRUNE_BATCH);
}
