// The partners area's service; it accepts only the scopes of the two APIs it is handed.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { PartnersService } from './partners.service';

export interface PartnersDependencies {
  db: Kysely<Database>;
  clock: Clock;
  scopes: ReadonlySet<string>;
}

export function buildPartnersService({ db, clock, scopes }: PartnersDependencies): PartnersService {
  return new PartnersService(db, clock, scopes);
}
