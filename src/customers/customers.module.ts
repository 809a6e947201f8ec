// The customers area's service.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { CustomersService } from './customers.service';

export interface CustomersDependencies {
  db: Kysely<Database>;
  clock: Clock;
}

export function buildCustomersService({ db, clock }: CustomersDependencies): CustomersService {
  return new CustomersService(db, clock);
}
