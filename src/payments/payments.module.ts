// The payments service (money out through the rail, to a key, a QR code, an account or a
// boleto); its expiry (expireStale) is a row of src/job-table.ts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { KeyLookupService } from '../keys/lookups.service';
import type { LimitsService } from '../limits/limits.service';
import type { Rail } from '../rail/rail.public';
import { PaymentDestinations } from './destinations';
import { PaymentsService } from './payments.service';

export interface PaymentsDependencies {
  config: Pick<Config, 'publicUrl'>;
  db: Kysely<Database>;
  clock: Clock;
  rail: Rail;
  limits: LimitsService;
  keyLookups: KeyLookupService;
  companies: CompanyDirectory;
}

export function buildPaymentsService(deps: PaymentsDependencies): PaymentsService {
  const { config, db, clock, rail, limits, keyLookups, companies } = deps;
  const destinations = new PaymentDestinations(db, rail, keyLookups, config.publicUrl);
  return new PaymentsService(db, clock, rail, limits, destinations, companies);
}

export { paymentEventSamples } from './payment-samples';
