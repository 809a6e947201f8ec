// The services of the accounts area: a company's accounts and its account registers.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { LimitsService } from '../limits/limits.service';
import { AccountRegistersService } from './account-registers.service';
import { AccountsService } from './accounts.service';

export interface AccountsServices {
  accounts: AccountsService;
  accountRegisters: AccountRegistersService;
}

export interface AccountsDependencies {
  db: Kysely<Database>;
  clock: Clock;
  limits: LimitsService;
  companies: CompanyDirectory;
}

export function buildAccountsServices({ db, clock, limits, companies }: AccountsDependencies): AccountsServices {
  return {
    accounts: new AccountsService(db, clock, limits, companies),
    accountRegisters: new AccountRegistersService(db, clock),
  };
}
