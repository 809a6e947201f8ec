// The qrcodes area's service; its links are absolute, under the configured public URL.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import { QrCodesService } from './qrcodes.service';

export interface QrCodesDependencies {
  config: Pick<Config, 'publicUrl'>;
  db: Kysely<Database>;
  clock: Clock;
}

export function buildQrCodesService({ config, db, clock }: QrCodesDependencies): QrCodesService {
  return new QrCodesService(db, clock, config.publicUrl);
}
