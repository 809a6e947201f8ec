// The disputes area's service.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { DisputesService } from './disputes.service';

export interface DisputesDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildDisputesService({ db, clock }: DisputesDependencies): DisputesService {
  return new DisputesService(db, clock);
}
