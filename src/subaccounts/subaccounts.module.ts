// The subaccounts area's service.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import { SubAccountsService } from './subaccounts.service';

export interface SubAccountsDependencies {
  db: Kysely<Database>;
  clock: Clock;
  companies: CompanyDirectory;
}

export function buildSubAccountsService({ db, clock, companies }: SubAccountsDependencies): SubAccountsService {
  return new SubAccountsService(db, clock, companies);
}
