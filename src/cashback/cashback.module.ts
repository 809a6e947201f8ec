// The cashback service and its payout job (due cashbacks paid back through the Pix rail).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import type { Clock } from '../db/clock';
import { CASHBACK_PAYOUTS_INTERVAL_MS, CASHBACK_PAYOUTS_JOB, CashbackService } from './cashback.service';

export function buildCashbackService(db: Kysely<Database>, clock: Clock, jobs: Scheduler): CashbackService {
  const service = new CashbackService(db, clock);
  // Tests: jobs.runNow('cashback.payouts').
  jobs.register(CASHBACK_PAYOUTS_JOB, CASHBACK_PAYOUTS_INTERVAL_MS, async () => {
    await service.payDue();
  });
  return service;
}
