// The request log's service, built once per process, and its background jobs: the flush of
// the buffer (a few times a second) and the pruning to the newest N per company.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Scheduler } from '../jobs/scheduler';
import { RequestLogService } from './request-logs.service';

export const REQUEST_LOG_FLUSH_JOB = 'request-logs.flush';
export const REQUEST_LOG_FLUSH_INTERVAL_MS = 250;
export const REQUEST_LOG_PRUNE_JOB = 'request-logs.prune';
export const REQUEST_LOG_PRUNE_INTERVAL_MS = 10_000;

export function buildRequestLogService(
  config: Config,
  db: Kysely<Database>,
  jobs: Scheduler,
  log: Logger,
): RequestLogService {
  const areaLog = log.child({ area: 'request-logs' });
  const service = new RequestLogService(db, config.requestLog, areaLog);
  if (!service.enabled) return service;
  // The flush does not wait for its write: a database that hangs must not stop the ticks
  // (nor the drop reports they make).
  jobs.register(REQUEST_LOG_FLUSH_JOB, REQUEST_LOG_FLUSH_INTERVAL_MS, async () => service.tick());
  jobs.register(REQUEST_LOG_PRUNE_JOB, REQUEST_LOG_PRUNE_INTERVAL_MS, async () => {
    const pruned = await service.prune();
    if (pruned.beyondLimit + pruned.tooOld > 0) areaLog.debug({ pruned }, 'request log pruned');
  });
  return service;
}
