// The services of the keys area (Pix keys): a company's keys and the lookups of anyone's
// key through the rail.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { CompanyDirectory } from '../identity/companies.service';
import type { Rail } from '../rail/rail.public';
import { PixKeysService } from './keys.service';
import { KeyLookupService } from './lookups.service';

export interface KeysServices {
  pixKeys: PixKeysService;
  keyLookups: KeyLookupService;
}

export interface KeysDependencies {
  db: Kysely<Database>;
  clock: Clock;
  rail: Rail;
  companies: CompanyDirectory;
}

export function buildKeysServices({ db, clock, rail, companies }: KeysDependencies): KeysServices {
  return {
    pixKeys: new PixKeysService(db, clock, companies),
    keyLookups: new KeyLookupService(db, clock, rail, companies),
  };
}
