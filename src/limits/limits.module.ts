// The limits area's service: the default limits, with the withdrawal settings of the config.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { DEFAULT_LIMITS, LimitsService } from './limits.service';

export interface LimitsDependencies {
  config: Pick<Config, 'withdrawals'>;
  db: Kysely<Database>;
  clock: Clock;
}

export function buildLimitsService({ config, db, clock }: LimitsDependencies): LimitsService {
  return new LimitsService(db, clock, {
    ...DEFAULT_LIMITS,
    minFreeWithdrawValue: config.withdrawals.minFreeValue,
    withdrawFee: config.withdrawals.fee,
  });
}
