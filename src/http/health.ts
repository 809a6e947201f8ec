// Probes for process managers and load balancers. GET /healthz: liveness, the process answers
// (no database: a database outage must not get healthy processes restarted). GET /readyz:
// readiness, the database answers a statement within READY_TIMEOUT_MS (else 503, so a load
// balancer sends traffic elsewhere until it does); its body adds the request log's counts
// (entries dropped when the database was slower than the traffic).
import type Router from '@koa/router';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { withDeadline } from '../db/deadline';
import type { Database } from '../db/schema';
import type { AppState } from './types';

export const READY_TIMEOUT_MS = 2000;

// Within its own deadline: on Postgres a probe still unanswered then gives its connection up,
// so probes during a network partition do not pile up on the pool (src/db/deadline.ts).
async function databaseAnswers(db: Kysely<Database>): Promise<string | undefined> {
  return withDeadline(READY_TIMEOUT_MS, () => sql`select 1`.execute(db)).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
}

// `details`: what else a readiness answer reports (the request log's writer: buffered,
// written and dropped entries), ready or not.
export function mountHealth(
  router: Router<AppState>,
  db: Kysely<Database>,
  logger: Logger,
  details: () => object = () => ({}),
): void {
  router.get('/healthz', async (koa) => {
    koa.set('Cache-Control', 'no-store');
    koa.body = { status: 'ok' };
  });
  router.get('/readyz', async (koa) => {
    koa.set('Cache-Control', 'no-store');
    const problem = await databaseAnswers(db);
    if (problem) logger.warn({ problem }, 'not ready: the database does not answer');
    koa.status = problem ? 503 : 200;
    koa.body = {
      ...(problem ? { status: 'unavailable', database: 'unavailable' } : { status: 'ready', database: 'ok' }),
      ...details(),
    };
  });
}
