// The services of money out (accounts, limits, keys and lookups, payments, the rail,
// account registers) and the idempotency records of platform POSTs, with their jobs.
import type { Kysely } from 'kysely';
import { AccountRegistersService } from '../accounts/account-registers.service';
import { AccountsService } from '../accounts/accounts.service';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { IdempotencyStore } from '../idempotency/idempotency.service';
import type { Scheduler } from '../jobs/scheduler';
import { PixKeysService } from '../keys/keys.service';
import { KeyLookupService } from '../keys/lookups.service';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import { DEFAULT_LIMITS, LimitsService } from '../limits/limits.service';
import { type Rail, SimulatedRail } from '../rail/rail.public';
import { PaymentDestinations } from './destinations';
import { PaymentsService } from './payments.service';

export interface MoneyOutServices {
  accounts: AccountsService;
  accountRegisters: AccountRegistersService;
  limits: LimitsService;
  rail: Rail;
  pixKeys: PixKeysService;
  keyLookups: KeyLookupService;
  payments: PaymentsService;
  idempotency: IdempotencyStore;
}

export function buildMoneyOutServices(
  config: Config,
  db: Kysely<Database>,
  clock: Clock,
  jobs: Scheduler,
  companies: CompanyDirectory,
): MoneyOutServices {
  const rail = new SimulatedRail(config.sandbox, config.publicUrl);
  const limits = new LimitsService(db, clock, {
    ...DEFAULT_LIMITS,
    minFreeWithdrawValue: config.withdrawals.minFreeValue,
    withdrawFee: config.withdrawals.fee,
  });
  const keyLookups = new KeyLookupService(db, clock, rail, companies);
  const payments = new PaymentsService(
    db,
    clock,
    rail,
    limits,
    new PaymentDestinations(db, rail, keyLookups, config.publicUrl),
    companies,
  );
  const idempotency = new IdempotencyStore(db, clock);
  jobs.register('payments.expire', 60_000, async () => void (await payments.expireStale()));
  jobs.register('idempotency.cleanup', 3_600_000, async () => void (await idempotency.deleteExpired()));
  return {
    accounts: new AccountsService(db, clock, limits, companies),
    accountRegisters: new AccountRegistersService(db, clock),
    limits,
    rail,
    pixKeys: new PixKeysService(db, clock, companies),
    keyLookups,
    payments,
    idempotency,
  };
}

export { paymentEventSamples } from './payment-samples';
