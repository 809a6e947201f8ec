// The cashback service; its payout job (payDue: due cashbacks paid back through the Pix rail)
// is a row of the job table (src/job-table.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { CashbackService } from './cashback.service';

export interface CashbackDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildCashbackService({ db, clock }: CashbackDependencies): CashbackService {
  return new CashbackService(db, clock);
}
