// The services of the recurrence family (Pix Automático), built once per process; its job
// (RecurrencesServices.recurrencesJob) is a row of src/job-table.ts.
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
  recs: RecService;
  recLocs: LocRecService;
  recPayloads: RecPayloadService;
  solicrecs: SolicRecService;
  cobrs: CobRService;
  // The payer's side, simulated in sandbox mode.
  sandboxRecs: SandboxRecService;
  recurrencesJob: RecurrencesJob;
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
  return {
    recs: new RecService(db, clock, config.publicUrl),
    recLocs: new LocRecService(db, clock, config.publicUrl),
    recPayloads: new RecPayloadService(db, payloadKeys),
    solicrecs,
    cobrs: new CobRService(db, clock),
    sandboxRecs: new SandboxRecService(db, clock, config.publicUrl),
    recurrencesJob: new RecurrencesJob(db, clock, solicrecs),
  };
}
