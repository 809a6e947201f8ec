// The request log's writer: answered requests wait in a bounded buffer of this process and are
// written in batches (one multi-row INSERT each) by background work, never on a request's path.
// Bounded: a full buffer drops the new entry and counts it; a batch that fails is retried
// once, at the next flush, then dropped and counted. Nothing here throws into a request or
// rejects into the process: a database that is away costs entries, counted, not requests.
import type { Logger } from 'pino';
import { outsideStatementCount } from '../db/statement-counter';
import type { RequestLogDrops, RequestLogEntry, RequestLogStatus } from './request-logs.types';

export interface RequestLogWriterOptions {
  // Writes one batch (one statement); rejects when it was not written.
  write: (entries: RequestLogEntry[]) => Promise<void>;
  // Told of each batch once written (the pruning learns which companies grew).
  written?: (entries: RequestLogEntry[]) => void;
  // Entries waiting at most; one more is dropped.
  capacity: number;
  // Characters of bodies waiting at most (4xx and 5xx bodies are up to 2 x 16 K each).
  maxBodyChars: number;
  // Entries per INSERT; a flush is started as soon as this many wait.
  batchSize: number;
  log: Logger;
  // The drop report's period (a warn line when entries were dropped since the last one).
  reportEveryMs: number;
  now?: () => number;
}

const bodyCharsOf = (entry: RequestLogEntry) => (entry.requestBody?.length ?? 0) + (entry.responseBody?.length ?? 0);

export class RequestLogWriter {
  private buffer: RequestLogEntry[] = [];
  private bodyChars = 0;
  // A batch whose first attempt failed: written first at the next flush, else dropped.
  private retry: RequestLogEntry[] | undefined;
  private running: Promise<void> | undefined;
  // One more pass asked for while a pass runs (at most one waits: a hung database does not
  // pile up flushes).
  private again: Promise<void> | undefined;
  private written = 0;
  // Entries of the batch being written now.
  private inFlight = 0;
  private closed = false;
  // The close stopped waiting: entries still in flight were counted as dropped.
  private gaveUp = false;
  private readonly dropped: RequestLogDrops = { bufferFull: 0, writeFailed: 0, shutdown: 0 };
  private reported = { dropped: 0, at: 0 };
  private lastFailure: string | undefined;
  private readonly now: () => number;

  constructor(private readonly options: RequestLogWriterOptions) {
    this.now = options.now ?? Date.now;
  }

  // Buffers one entry (the request's path: no await, no statement).
  push(entry: RequestLogEntry): void {
    if (this.closed) {
      this.dropped.shutdown++;
      return;
    }
    const chars = bodyCharsOf(entry);
    if (this.buffer.length >= this.options.capacity || this.bodyChars + chars > this.options.maxBodyChars) {
      this.dropped.bufferFull++;
      return;
    }
    this.buffer.push(entry);
    this.bodyChars += chars;
    // A full batch goes now, as background work: not counted as this request's statement.
    if (this.buffer.length >= this.options.batchSize && !this.running) outsideStatementCount(() => void this.flush());
  }

  // Writes what waits now, batch by batch; resolves once every entry buffered before the call
  // is written, or a batch failed (it is retried at the next flush). Never rejects.
  flush(): Promise<void> {
    if (this.running) {
      this.again ??= this.running.then(() => {
        this.again = undefined;
        return this.flush();
      });
      return this.again;
    }
    const run = this.drain();
    this.running = run;
    const done = () => {
      if (this.running === run) this.running = undefined;
    };
    void run.then(done, done);
    return run;
  }

  // The periodic work: reports drops, and starts a flush unless one runs.
  tick(): void {
    this.reportDrops();
    if (!this.running) void this.flush();
  }

  // On close: the last flush (with the retry of a batch that failed), waiting at most
  // `waitMs`; what could not be written is dropped and counted.
  async close(waitMs: number): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((ok) => (timer = setTimeout(ok, waitMs)));
    try {
      await Promise.race([this.flush().then(() => (this.retry ? this.flush() : undefined)), timeout]);
    } finally {
      clearTimeout(timer);
    }
    const left = this.buffer.length + (this.retry?.length ?? 0) + this.inFlight;
    this.gaveUp = left > 0;
    this.dropped.shutdown += left;
    this.buffer = [];
    this.retry = undefined;
    this.bodyChars = 0;
    this.reportDrops({ force: true });
  }

  status(): RequestLogStatus {
    return {
      enabled: true,
      // waiting, and being written (unless the close already counted those as dropped)
      buffered: this.buffer.length + (this.retry?.length ?? 0) + (this.gaveUp ? 0 : this.inFlight),
      written: this.written,
      dropped: { ...this.dropped },
    };
  }

  private async drain(): Promise<void> {
    if (this.retry) {
      const batch = this.retry;
      this.retry = undefined;
      if (!(await this.attempt(batch))) this.dropped.writeFailed += batch.length;
    }
    while (this.buffer.length > 0 && !this.retry) {
      const batch = this.takeBatch();
      // A failed batch waits for the next flush: a database that is restarting gets time.
      if (!(await this.attempt(batch))) this.retry = batch;
    }
  }

  private takeBatch(): RequestLogEntry[] {
    const size = this.options.batchSize;
    const batch = this.buffer.length <= size ? this.buffer : this.buffer.slice(0, size);
    this.buffer = this.buffer.length <= size ? [] : this.buffer.slice(size);
    for (const entry of batch) this.bodyChars -= bodyCharsOf(entry);
    return batch;
  }

  private async attempt(batch: RequestLogEntry[]): Promise<boolean> {
    this.inFlight = batch.length;
    try {
      await this.options.write(batch);
    } catch (error) {
      this.lastFailure = error instanceof Error ? error.message : String(error);
      return false;
    } finally {
      this.inFlight = 0;
    }
    this.written += batch.length;
    // written after all, once the close had counted it as lost
    if (this.gaveUp) this.dropped.shutdown -= Math.min(batch.length, this.dropped.shutdown);
    try {
      this.options.written?.(batch);
    } catch (error) {
      this.options.log.error({ err: error }, 'request log: a written batch could not be noted for pruning');
    }
    return true;
  }

  private reportDrops({ force = false } = {}): void {
    const total = this.dropped.bufferFull + this.dropped.writeFailed + this.dropped.shutdown;
    const now = this.now();
    if (total === this.reported.dropped || (!force && now - this.reported.at < this.options.reportEveryMs)) return;
    this.options.log.warn(
      {
        requestLog: this.status(),
        droppedSinceLastReport: total - this.reported.dropped,
        ...(this.lastFailure ? { lastWriteError: this.lastFailure } : {}),
      },
      'request log entries dropped',
    );
    this.reported = { dropped: total, at: now };
  }
}
