// Background work of this process: each job runs every `intervalMs`, one run at a time, and
// stops with the server. Jobs must be safe with several processes on one Postgres: claim
// rows with `FOR UPDATE SKIP LOCKED` (or agree through the database) and keep no state here.
// Tests call runNow() instead of waiting for the timer. A failed run (the database away, a
// bug) is logged and the job runs again at its next interval: it never ends the process.
import { AsyncResource } from 'node:async_hooks';
import type { Logger } from 'pino';
import { withoutDeadline } from '../db/deadline';
import { isDatabaseUnavailable } from '../db/errors';

// What a job runs; what it resolves to is not read.
export type Job = () => Promise<unknown>;

// One row of the job table (src/job-table.ts, the composition root's): every job of the
// process is one of these, registered by registerAll().
export interface JobRow {
  name: string;
  intervalMs: number;
  run: Job;
  // One line of why the job exists.
  why: string;
  // Its work comes due as a company's clock moves (expiries, due dates, retries): a clock
  // moved forward wakes it at once (wakeClockDriven) instead of at its next tick.
  clockDriven?: boolean | undefined;
}

interface Registered {
  job: Job;
  intervalMs: number;
  clockDriven: boolean;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  // Woken while running: run again as soon as this run ends.
  woken?: boolean;
}

export class Scheduler {
  private readonly jobs = new Map<string, Registered>();
  private started = false;
  // The async context the scheduler was made in (start-up: no request's). A timer set while
  // a request wakes a job would otherwise carry that request's context into every later run:
  // its deadline (each statement refused once the request's time is up) and its statement
  // tally. Every timer is set from this one instead.
  private readonly home = new AsyncResource('pixgate.scheduler');

  constructor(private readonly log: Logger) {}

  register(name: string, intervalMs: number, job: Job, options: { clockDriven?: boolean | undefined } = {}): void {
    if (this.jobs.has(name)) throw new Error(`job ${name} registered twice`);
    this.jobs.set(name, { job, intervalMs, clockDriven: options.clockDriven ?? false });
    if (this.started) this.schedule(name);
  }

  registerAll(table: readonly JobRow[]): void {
    for (const row of table) this.register(row.name, row.intervalMs, row.run, { clockDriven: row.clockDriven });
  }

  start(): void {
    this.started = true;
    for (const name of this.jobs.keys()) this.schedule(name);
  }

  // Runs a job now (after a run in progress: run() queues) and resolves when it is done.
  async runNow(name: string): Promise<void> {
    const entry = this.jobs.get(name);
    if (!entry) throw new Error(`no job ${name}`);
    await this.run(name, entry);
  }

  // Runs a job soon instead of at its next tick (work was just made for it, e.g. a delivery
  // that must go now). Only while the scheduler runs: tests that drive jobs with runNow()
  // keep driving them.
  wake(name: string): void {
    const entry = this.jobs.get(name);
    if (!entry) throw new Error(`no job ${name}`);
    if (!this.started) return;
    if (entry.running) entry.woken = true;
    else this.schedule(name, 0);
  }

  // A company's clock moved forward (the sandbox): what came due with it is done now, by this
  // process's runs (each run serves every company; other processes keep their ticks).
  wakeClockDriven(): void {
    for (const [name, entry] of this.jobs) if (entry.clockDriven) this.wake(name);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const entry of this.jobs.values()) clearTimeout(entry.timer);
    await Promise.all([...this.jobs.values()].map((e) => e.running));
  }

  private schedule(name: string, delayMs?: number): void {
    const entry = this.jobs.get(name)!;
    clearTimeout(entry.timer);
    entry.timer = this.home.runInAsyncScope(() =>
      setTimeout(() => {
        void this.run(name, entry).finally(() => {
          if (!this.started) return;
          const again = entry.woken;
          entry.woken = false;
          this.schedule(name, again ? 0 : undefined);
        });
      }, delayMs ?? entry.intervalMs),
    );
    entry.timer.unref();
  }

  // An outage is the database's, said in one line; anything else is a bug, with its stack.
  private failed(name: string, err: unknown): void {
    if (isDatabaseUnavailable(err))
      this.log.warn({ job: name, error: (err as Error).message }, 'background job failed: database unavailable');
    else this.log.error({ err, job: name }, 'background job failed');
  }

  private async run(name: string, entry: Registered): Promise<void> {
    // Called inside a promise, so a job that throws before returning one is caught too.
    // Outside any request's deadline: a wake() from inside a request (a committed event heard
    // on the change feed, a new webhook) must not lend the run that request's time limit.
    // One run of a job at a time in this process: a tick or a wake that fires while runNow()'s
    // run goes (or the reverse) waits for it. Two at once would split the rows between them
    // (SKIP LOCKED), and a caller of runNow() would go on while its work was half done.
    while (entry.running) await entry.running;
    const running = Promise.resolve()
      .then(async () => void (await withoutDeadline(entry.job)))
      .catch((err: unknown) => this.failed(name, err));
    entry.running = running;
    await running;
    if (entry.running === running) entry.running = undefined;
  }
}
