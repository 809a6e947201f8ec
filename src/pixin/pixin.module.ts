// Builds the money-in services and registers their job (devolutions settled by the rail).
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import { SETTLEMENT_INTERVAL_MS, SETTLEMENT_JOB } from './devolution-settlement';
import { PixInService } from './pixin.service';

export function buildPixInService(
  config: Pick<Config, 'publicUrl'>,
  db: Kysely<Database>,
  clock: Clock,
  jobs: Scheduler,
): PixInService {
  const pixin = new PixInService(db, clock, config);
  jobs.register(SETTLEMENT_JOB, SETTLEMENT_INTERVAL_MS, async () => {
    await pixin.settlement.settlePending();
  });
  return pixin;
}

export { pixInEventSamples } from './pixin-samples';
