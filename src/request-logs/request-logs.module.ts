// The request log's service, built once per process, and what its background jobs run (rows
// of src/job-table.ts, only when the log is on): the flush of the buffer (a few times a
// second, RequestLogService.tick) and the pruning to the newest N per company.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import { RequestLogService } from './request-logs.service';

export const REQUEST_LOG_FLUSH_JOB = 'request-logs.flush';
export const REQUEST_LOG_PRUNE_JOB = 'request-logs.prune';

export interface RequestLogDependencies {
  config: Config;
  db: Kysely<Database>;
  log: Logger;
}

export function buildRequestLogService({ config, db, log }: RequestLogDependencies): RequestLogService {
  return new RequestLogService(db, config.requestLog, log.child({ area: 'request-logs' }));
}

// The prune job's run: the newest N per company kept, what went said at debug level.
export async function pruneRequestLog(service: RequestLogService, log: Logger): Promise<void> {
  const pruned = await service.prune();
  if (pruned.beyondLimit + pruned.tooOld > 0)
    log.child({ area: 'request-logs' }).debug({ pruned }, 'request log pruned');
}
