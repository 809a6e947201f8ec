// The services of the recurrence family (Pix Automático), built once per process; its job
// (RecurrencesServices.job) is a row of src/job-table.ts.
import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Clock } from '../db/clock';
import type { PayloadKeyService } from '../signing/payload-keys.service';
import { RecurrencesJob } from './cobr-settlement';
import { CobRService } from './cobr.service';
import { LocRecService } from './locrec.service';
import { RecPayloadService } from './payload.service';
import { RecService } from './rec.service';
import { SandboxRecService } from './sandbox-rec.service';
import { SolicRecService } from './solicrec.service';

export interface RecurrencesServices {
  locs: LocRecService;
  recs: RecService;
  payloads: RecPayloadService;
  solicrecs: SolicRecService;
  cobrs: CobRService;
  sandbox: SandboxRecService;
  job: RecurrencesJob;
}

export { RECURRENCES_JOB } from './cobr-settlement';

export interface RecurrencesDependencies {
  config: Config;
  db: Kysely<Database>;
  clock: Clock;
  payloadKeys: PayloadKeyService;
}

export function buildRecurrencesServices({
  config,
  db,
  clock,
  payloadKeys,
}: RecurrencesDependencies): RecurrencesServices {
  const solicrecs = new SolicRecService(db, clock);
  const job = new RecurrencesJob(db, clock, solicrecs);
  return {
    locs: new LocRecService(db, clock, config.publicUrl),
    recs: new RecService(db, clock, config.publicUrl),
    payloads: new RecPayloadService(db, payloadKeys),
    solicrecs,
    cobrs: new CobRService(db, clock),
    sandbox: new SandboxRecService(db, clock, config.publicUrl),
    job,
  };
}
