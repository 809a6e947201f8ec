// Builds the money-in services; their job (devolutions settled by the rail:
// PixInService.settlement) is a row of src/job-table.ts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { PixInService } from './pixin.service';

export { SETTLEMENT_JOB } from './devolution-settlement';

export interface PixInDependencies {
  config: Pick<Config, 'publicUrl'>;
  db: Kysely<Database>;
  clock: Clock;
}

export function buildPixInService({ config, db, clock }: PixInDependencies): PixInService {
  return new PixInService(db, clock, config);
}

export { pixInEventSamples } from './pixin-samples';
