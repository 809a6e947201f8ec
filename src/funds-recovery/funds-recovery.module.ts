// The funds-recovery area's service: MED, the special return mechanism.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { FundsRecoveryService } from './funds-recovery.service';

export interface FundsRecoveryDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildFundsRecoveryService({ db, clock }: FundsRecoveryDependencies): FundsRecoveryService {
  return new FundsRecoveryService(db, clock);
}
