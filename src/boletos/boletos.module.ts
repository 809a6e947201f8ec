// The boletos area's service; its links are absolute, under the configured public URL.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { BoletosService } from './boletos.service';

export interface BoletosDependencies {
  config: Pick<Config, 'publicUrl'>;
  db: Kysely<Database>;
  clock: Clock;
}

export function buildBoletosService({ config, db, clock }: BoletosDependencies): BoletosService {
  return new BoletosService(db, clock, config.publicUrl);
}
