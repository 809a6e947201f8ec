// Every background job of the process, in one table: its name (what tests pass to
// jobs.runNow and services to jobs.wake), how often it runs, what it runs, and why. The
// scheduler (src/jobs/scheduler.ts) registers the rows; docs/ARCHITECTURE.md lists the same
// jobs (test/docs/docs.test.ts holds the two together). A job must be safe with several
// processes on one database: it claims rows FOR UPDATE SKIP LOCKED or agrees through it.
import type { Logger } from 'pino';
import type { JobRow } from './jobs/scheduler';
import type { Services } from './services';
import { analyzeChangedTables, STATISTICS_JOB } from './db/statistics.job';
import { CASHBACK_PAYOUTS_JOB } from './cashback/cashback.service';
import { CHARGE_COUNTS_JOB, CHARGE_EXPIRY_JOB, rollUpChargeCounts } from './charges/charges.module';
import { EVENT_RETENTION_JOB, pruneOldEvents } from './events/events.module';
import { KYC_MESSAGES_JOB } from './kyc/kyc.module';
import { SETTLEMENT_JOB } from './pixin/pixin.module';
import { RECURRENCES_JOB } from './recurrences/recurrences.module';
import { pruneRequestLog, REQUEST_LOG_FLUSH_JOB, REQUEST_LOG_PRUNE_JOB } from './request-logs/request-logs.module';
import { SUBSCRIPTION_CHARGES_JOB } from './subscriptions/subscriptions.service';
import { WEBHOOKS_JOB } from './webhooks/webhooks.module';

export interface JobTableOptions {
  // The database is the embedded one (PGlite: no autovacuum of its own).
  embedded: boolean;
  log: Logger;
}

interface TableRow extends Omit<JobRow, 'run'> {
  run: (services: Services, options: JobTableOptions) => Promise<unknown>;
  // Registered only when true (the request log is on; the database is the embedded one).
  when?: (services: Services, options: JobTableOptions) => boolean;
}

// Fastest first.
const JOBS: readonly TableRow[] = [
  {
    name: REQUEST_LOG_FLUSH_JOB,
    intervalMs: 250,
    // Does not wait for its write: a database that hangs must not stop the ticks (nor the
    // drop reports they make).
    run: async ({ requestLogs }) => requestLogs.tick(),
    why: 'writes the buffered request log entries, off the requests',
    when: ({ requestLogs }) => requestLogs.enabled,
  },
  {
    name: REQUEST_LOG_PRUNE_JOB,
    intervalMs: 10_000,
    run: ({ requestLogs }, { log }) => pruneRequestLog(requestLogs, log),
    why: 'keeps the newest PIXGATE_REQUEST_LOG_LIMIT entries per company, drops old ones',
    when: ({ requestLogs }) => requestLogs.enabled,
  },
  {
    name: WEBHOOKS_JOB,
    intervalMs: 1000,
    run: (services) => services.webhookDelivery.runOnce(),
    why: 'fans the events outbox out into deliveries and sends due ones (woken by new events)',
    clockDriven: true,
  },
  {
    name: KYC_MESSAGES_JOB,
    intervalMs: 1000,
    run: (services) => services.kycDelivery.runOnce(),
    why: 'hands the one-time code messages of the outbox to their senders (SMTP)',
  },
  {
    name: SETTLEMENT_JOB,
    intervalMs: 2000,
    run: (services) => services.pixin.settlement.settlePending(),
    why: 'settles pending devolutions through the rail',
    clockDriven: true,
  },
  {
    name: CHARGE_EXPIRY_JOB,
    intervalMs: 5000,
    run: (services) => services.chargeExpiry.run(),
    why: 'records CHARGE_EXPIRED for charges past their expiry',
    clockDriven: true,
  },
  {
    name: CASHBACK_PAYOUTS_JOB,
    intervalMs: 5000,
    run: (services) => services.cashback.payDue(),
    why: 'pays back the cashback that is due, through the Pix rail',
    clockDriven: true,
  },
  {
    name: RECURRENCES_JOB,
    intervalMs: 30_000,
    run: (services) => services.recurrencesJob.run(),
    why: 'settles due recurring charges (cobr), expires stale ones and requests',
    clockDriven: true,
  },
  {
    name: STATISTICS_JOB,
    intervalMs: 30_000,
    run: ({ db }) => analyzeChangedTables(db),
    why: 'ANALYZEs the tables autovacuum would: PGlite has no autovacuum',
    when: (_, { embedded }) => embedded,
  },
  {
    name: 'payments.expire',
    intervalMs: 60_000,
    run: (services) => services.payments.expireStale(),
    why: 'denies payments not approved in time',
    clockDriven: true,
  },
  {
    name: SUBSCRIPTION_CHARGES_JOB,
    intervalMs: 60_000,
    run: (services) => services.subscriptions.generateDue(),
    why: "makes the installments' charges that are due",
    clockDriven: true,
  },
  {
    name: CHARGE_COUNTS_JOB,
    intervalMs: 10 * 60_000,
    run: ({ db }) => rollUpChargeCounts(db),
    why: 'rolls every day that ended into the daily charge counts lists read',
  },
  {
    name: EVENT_RETENTION_JOB,
    intervalMs: 10 * 60_000,
    run: ({ db, config }) => pruneOldEvents(db, config),
    why: 'deletes events (and deliveries) older than PIXGATE_EVENT_RETENTION_DAYS',
  },
  {
    name: 'idempotency.cleanup',
    intervalMs: 3_600_000,
    run: (services) => services.idempotency.deleteExpired(),
    why: 'deletes expired Idempotency-Key records',
  },
];

// The rows of this process (those whose `when` holds), each running over its services.
export function jobTable(services: Services, options: JobTableOptions): JobRow[] {
  return JOBS.filter((row) => row.when?.(services, options) ?? true).map(
    ({ name, intervalMs, run, why, clockDriven }) => ({
      name,
      intervalMs,
      run: () => run(services, options),
      why,
      clockDriven,
    }),
  );
}
