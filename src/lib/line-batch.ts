// Log lines gathered in memory and handed to their destination (pino's SonicBoom) a batch at a
// time. SonicBoom appends each line to the text it holds and measures that whole text's UTF-8
// length on every write, then starts a write of its own (on the thread pool) each time the
// text passes its minimum: together about 4% of a simple read's CPU, one line per request.
// Here a line costs an array push; SonicBoom sees one write per batch, and still owns the
// writing, its back-pressure and its errors.

// Characters gathered before they are handed over (the interval flush hands over the rest).
const BATCH_CHARS = 16 * 1024;

export interface LineDestination {
  write(text: string): boolean;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

// Every batch, written synchronously when the process exits (one listener for them all).
const batches = new Set<LineBatch>();
let flushesAtExit = false;

export class LineBatch implements LineDestination {
  private lines: string[] = [];
  private chars = 0;

  constructor(private readonly out: LineDestination) {
    batches.add(this);
    if (flushesAtExit) return;
    flushesAtExit = true;
    process.once('exit', () => {
      for (const batch of batches) batch.flushSync();
    });
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.handOver();
    return true;
  }

  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    this.out.flush(callback);
  }

  flushSync(): void {
    this.handOver();
    this.out.flushSync();
  }

  private handOver(): void {
    if (this.chars === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.out.write(text);
  }
}
