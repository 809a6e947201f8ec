// One process of scripts/test.ts that runs test files one after another, as the runner sends
// their paths on stdin, one per line. Each file still gets its own servers and databases (a
// test file starts and closes its own); what it shares with the files before it is what a
// process loads once and never changes: the modules, the compiled request validators and
// the embedded database's compiled WebAssembly. That is most of a file's start-up time
// (measured in docs/SPEED.md).
//
// Everything the file prints goes to stdout (stderr is folded in so the two cannot be
// reordered), followed by one line that starts with FILE_END and carries the file's exit
// code and this process's memory. A file that crashes the process has no such line: the
// runner counts it failed and starts another process.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { FILE_END, SLOWEST_TESTS } from './test-file-end';

interface UvuGlobals {
  UVU_DEFER?: number;
  UVU_QUEUE: unknown[][];
  UVU_INDEX?: number;
}

const uvuGlobals = globalThis as unknown as UvuGlobals;

// uvu queues suites instead of running them at once when UVU_DEFER is set before it loads
// (its own CLI runs many files this way); exec() then runs what the file queued.
uvuGlobals.UVU_DEFER = 1;
const { exec, test: defaultSuite } = await import('uvu');
const stdoutWrite = process.stdout.write.bind(process.stdout);
process.stderr.write = stdoutWrite as typeof process.stderr.write;

// Each test's time, from its before.each hooks to its after.each hooks (a file's before and
// after hooks are its own: the file's time has them). Hooks of uvu's default suite, added
// before the file loads: its test.run() takes them along with the file's own.
type TestTime = [name: string, ms: number];

function timeTests(times: TestTime[]): void {
  let started = 0;
  defaultSuite.before.each(() => void (started = performance.now()));
  defaultSuite.after.each(
    (state: { __test__: string }) => void times.push([state.__test__, performance.now() - started]),
  );
}

async function runFile(file: string, times: TestTime[]): Promise<number> {
  uvuGlobals.UVU_QUEUE.length = 0;
  uvuGlobals.UVU_QUEUE.push([null]);
  uvuGlobals.UVU_INDEX = 0;
  process.exitCode = 0;
  timeTests(times);
  try {
    await import(pathToFileURL(file).href);
    await exec();
  } catch (error) {
    console.error(`${file} failed to load:`, error);
    return 1;
  }
  return Number(process.exitCode ?? 0);
}

for await (const line of createInterface({ input: process.stdin })) {
  const file = line.trim();
  if (!file) continue;
  const times: TestTime[] = [];
  const code = await runFile(file, times);
  process.exitCode = 0;
  const rssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  // The file's slowest tests only: what the run's list of the ten slowest can use.
  const slowest = times
    .sort((a, b) => b[1] - a[1])
    .slice(0, SLOWEST_TESTS)
    .map(([n, ms]) => [n, Math.round(ms)]);
  const end = JSON.stringify({ code, rssMb, slowest });
  await new Promise<void>((done) => stdoutWrite(`\n${FILE_END}${end}\n`, () => done()));
}
// No more files: exit now (what a file left open must not keep the process), running the
// exit handlers the files registered.
process.exit(0);
