// The idempotency records of platform POSTs; their cleanup (deleteExpired) is a row of
// src/job-table.ts.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { IdempotencyStore } from './idempotency.service';

export interface IdempotencyDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildIdempotencyStore({ db, clock }: IdempotencyDependencies): IdempotencyStore {
  return new IdempotencyStore(db, clock);
}
