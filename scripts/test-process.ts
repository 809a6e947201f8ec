// A process of scripts/test-worker.ts as scripts/test.ts drives it: it is sent one test file
// at a time and its output is cut at the FILE_END line that follows each file. The runner
// replaces it after a file that crashed it or ran out of time, and once it has run a bound
// number of files or grown past a bound of memory (what earlier files left behind is not the
// next file's to carry).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { FILE_END } from './test-file-end';

export interface FileEnd {
  // 0 when every test passed; a crash or a timeout is reported as 1.
  code: number;
  output: string;
  // The file's slowest tests and their milliseconds (none when the file did not end).
  slowest: [name: string, ms: number][];
}

export interface TestProcessOptions {
  cwd: string;
  timeoutMs: number;
  maxFiles: number;
  maxRssMb: number;
}

const END_GRACE_MS = 10_000;

interface EndLine {
  code: number;
  rssMb: number;
  slowest: [name: string, ms: number][];
}

export class TestProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private output = '';
  private ended: ((end: EndLine | undefined) => void) | undefined;
  private filesRun = 0;
  private alive = true;
  private readonly closed: Promise<void>;
  rssMb = 0;

  constructor(private readonly options: TestProcessOptions) {
    this.child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'test-worker.ts')], {
      cwd: options.cwd,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    this.child.stdout.on('data', (d) => this.read(String(d)));
    this.child.stderr.on('data', (d) => (this.output += d));
    this.closed = new Promise((done) =>
      this.child.on('close', () => {
        this.alive = false;
        this.ended?.(undefined);
        done();
      }),
    );
  }

  // Whether the next file needs a new process.
  get spent(): boolean {
    const { maxFiles, maxRssMb } = this.options;
    return !this.alive || this.filesRun >= maxFiles || this.rssMb >= maxRssMb;
  }

  run(file: string): Promise<FileEnd> {
    this.output = '';
    this.filesRun++;
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.output += `\n(timed out after ${this.options.timeoutMs} ms)\n`;
        this.kill();
      }, this.options.timeoutMs);
      this.ended = (end) => {
        clearTimeout(timer);
        this.ended = undefined;
        const output = this.output;
        this.output = '';
        if (end) this.rssMb = end.rssMb;
        if (end) done({ code: end.code, output, slowest: end.slowest });
        else done({ code: 1, output: `${output}\n(the test process ended before the file did)\n`, slowest: [] });
      };
      this.child.stdin.write(`${file}\n`);
    });
  }

  // Between files: the process is asked to exit (its stdin ends), so what the files set up
  // to run at exit does (test/support/bundle.ts removes its build); killed if it does not.
  async end(): Promise<void> {
    if (!this.alive) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), END_GRACE_MS);
    await this.closed;
    clearTimeout(timer);
  }

  // A file that hung: nothing of it runs any more.
  private kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  private read(chunk: string): void {
    this.output += chunk;
    const at = this.output.indexOf(FILE_END);
    const lineEnd = at < 0 ? -1 : this.output.indexOf('\n', at);
    if (lineEnd < 0) return;
    const end = JSON.parse(this.output.slice(at + FILE_END.length, lineEnd)) as EndLine;
    // One file at a time: nothing follows its end line until the next file is sent.
    this.output = this.output.slice(0, at);
    this.ended?.(end);
  }
}
