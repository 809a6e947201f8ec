// Runs every test file, two at a time (three on Postgres), and ends with one line
// "N passed, N failed" (the totals of all files). Exits non-zero on any failure.
// Usage: tsx scripts/test.ts [substring filters...]
//
// Each file starts its own servers on fresh databases. The files run one after another in a
// few long-lived processes (scripts/test-process.ts), which load the modules, the request
// validators and the embedded database's code once instead of once per file.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { TestProcess } from './test-process';

// The folder whose test/ is run and whose .tmp/ keeps the template and the last times
// (TEST_ROOT: the runner's own test runs it on planted files).
const ROOT = resolve(process.env.TEST_ROOT ?? join(import.meta.dirname, '..'));
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 300_000);
const PROCESS_OPTIONS = {
  cwd: ROOT,
  timeoutMs: FILE_TIMEOUT_MS,
  maxFiles: Number(process.env.TEST_FILES_PER_PROCESS ?? 60),
  maxRssMb: 1536,
};
const filters = process.argv.slice(2);

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

interface FileResult {
  file: string;
  passed: number;
  failed: number;
  skipped: number;
  output: string;
  ms: number;
}

// Counts a file's result from what it printed (uvu's summary) and how it ended.
function resultOf(file: string, output: string, code: number, ms: number): FileResult {
  const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0);
  let failed = Math.max(0, total - passed - skipped);
  // A file that crashed or hung before its summary counts as one failure.
  if (code !== 0 && failed === 0) failed = 1;
  // A file that ran nothing is a failure, unless it skipped (by name) every test it has.
  if (total === 0 && skipped === 0 && code === 0) failed = 1;
  return { file: relative(ROOT, file), passed, failed, skipped, output: clean, ms };
}

// On the embedded database every test file would create a new cluster (about 3 s); build one
// migrated template per run instead and let each file load it.
if (!process.env.DATABASE_URL && !process.env.PIXGATE_TEST_TEMPLATE) {
  const { writeEmbeddedTemplate } = await import('../src/db/database');
  const { migrateToLatest } = await import('../src/db/migrate');
  const { dropTemplateDatabases } = await import('../src/db/embedded-template');
  const file = join(ROOT, '.tmp', 'pglite-template.tar');
  mkdirSync(dirname(file), { recursive: true });
  // Without template0 and template1, as the cluster new data folders are copied from
  // (src/db/embedded-template.ts): 29 MB instead of 44, loaded by each file in 420-480 ms
  // instead of 570-780.
  await writeEmbeddedTemplate(file, async (db) => {
    await migrateToLatest(db);
    await dropTemplateDatabases(db);
  });
  process.env.PIXGATE_TEST_TEMPLATE = file;
}

// On Postgres each test server migrated a schema of its own (about 0.5 s): one schema is
// migrated per run instead, and each server's schema is a copy of it (test/support/
// postgres-template.ts). Without pg_dump every server migrates, as before.
if (process.env.DATABASE_URL && !process.env.PIXGATE_TEST_PG_TEMPLATE) {
  const { writePostgresTemplate } = await import('../test/support/postgres-template');
  const file = join(ROOT, '.tmp', 'postgres-template.sql');
  mkdirSync(dirname(file), { recursive: true });
  try {
    await writePostgresTemplate(process.env.DATABASE_URL, file);
    process.env.PIXGATE_TEST_PG_TEMPLATE = file;
  } catch (error) {
    console.log(`no Postgres template (each test server migrates its schema): ${(error as Error).message}`);
  }
}

const files = findTests(join(ROOT, 'test'))
  .sort()
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
// The longest files first (times of the last run, kept in .tmp): a long file started last
// would leave the other worker idle at the end.
const TIMES_FILE = join(ROOT, '.tmp', 'test-times.json');
const lastTimes: Record<string, number> = existsSync(TIMES_FILE) ? JSON.parse(readFileSync(TIMES_FILE, 'utf8')) : {};
const lastTime = (f: string) => lastTimes[relative(ROOT, f)] ?? Number.MAX_SAFE_INTEGER;
const queue = [...files].sort((a, b) => lastTime(b) - lastTime(a));
const runStarted = Date.now();
const results: FileResult[] = [];
let processesStarted = 0;
let largestRssMb = 0;
// Each file's slowest tests: the run prints the ten slowest of all.
const testTimes: { file: string; name: string; ms: number }[] = [];

// One worker: files from the queue, in one process until it is spent.
async function work(): Promise<void> {
  let running: TestProcess | undefined;
  for (let file = queue.shift(); file; file = queue.shift()) {
    if (!running || running.spent) {
      await running?.end();
      running = new TestProcess(PROCESS_OPTIONS);
      processesStarted++;
    }
    const started = Date.now();
    const end = await running.run(file);
    largestRssMb = Math.max(largestRssMb, running.rssMb);
    report(resultOf(file, end.output, end.code, Date.now() - started));
    for (const [name, ms] of end.slowest) testTimes.push({ file: relative(ROOT, file), name, ms });
  }
  await running?.end();
}

function report(result: FileResult): void {
  results.push(result);
  const mark = result.failed > 0 ? 'FAIL' : 'ok  ';
  process.stdout.write(
    `${mark} ${result.file} (${result.passed} passed, ${result.failed} failed, ${(result.ms / 1000).toFixed(1)} s)\n`,
  );
  for (const line of result.output.split('\n'))
    if (/^(pending|note):/.test(line)) process.stdout.write(`     ${line}\n`);
  if (result.failed > 0)
    process.stdout.write(
      result.output
        .split('\n')
        .map((l) => `     | ${l}`)
        .join('\n') + '\n',
    );
}

// Files at once: on the embedded database a file's database runs in its own process, so two
// keep two cores busy (a third gained nothing). On Postgres a file also waits on Postgres's
// processes, and a third file fills that wait: 197 s against 238 s for the Postgres suite
// (2026-11-26, two cores).
const defaultJobs = Math.min(cpus().length, 2) + (process.env.DATABASE_URL ? 1 : 0);
const workers = Array.from({ length: Math.max(1, Number(process.env.TEST_JOBS ?? defaultJobs)) }, work);
await Promise.all(workers);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
// Every skipped test by name, with its reason (test/support/skip.ts prints them).
const skippedNames = results.flatMap((r) =>
  r.output
    .split('\n')
    .filter((l) => l.startsWith('skipped: '))
    .map((l) => `  ${r.file}: ${l.slice('skipped: '.length)}`),
);
if (skippedNames.length) process.stdout.write(`\nskipped:\n${skippedNames.join('\n')}\n`);
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 10);
process.stdout.write(
  `\nten slowest files:\n${slowest.map((r) => `  ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.file}`).join('\n')}\n`,
);
const slowestTests = testTimes.sort((a, b) => b.ms - a.ms).slice(0, 10);
process.stdout.write(
  `\nten slowest tests:\n${slowestTests.map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.file}: ${t.name}`).join('\n')}\n`,
);
process.stdout.write(`wall time: ${((Date.now() - runStarted) / 1000).toFixed(1)} s\n`);
process.stdout.write(`test processes: ${processesStarted} (the largest grew to ${largestRssMb} MB)\n`);
mkdirSync(dirname(TIMES_FILE), { recursive: true });
writeFileSync(TIMES_FILE, JSON.stringify({ ...lastTimes, ...Object.fromEntries(results.map((r) => [r.file, r.ms])) }));
process.stdout.write(
  `\n${files.length} files on ${process.env.DATABASE_URL ? 'Postgres (DATABASE_URL)' : 'the embedded database'}\n`,
);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
