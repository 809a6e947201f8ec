// Runs every test file in its own process (each gets a fresh database), two at a time,
// and ends with one line "N passed, N failed" (the totals of all files). Exits non-zero on
// any failure. Usage: tsx scripts/test.ts [substring filters...]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 300_000);
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

function runFile(file: string): Promise<FileResult> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n(timed out after ${FILE_TIMEOUT_MS} ms)\n`;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      const clean = output.replace(/\x1b\[[0-9;]*m/g, '');
      const total = Number(/Total:\s+(\d+)/.exec(clean)?.[1] ?? 0);
      const passed = Number(/Passed:\s+(\d+)/.exec(clean)?.[1] ?? 0);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(clean)?.[1] ?? 0);
      let failed = Math.max(0, total - passed - skipped);
      // A file that crashed or hung before its summary counts as one failure.
      if (code !== 0 && failed === 0) failed = 1;
      // A file that ran nothing is a failure, unless it skipped (by name) every test it has.
      if (total === 0 && skipped === 0 && code === 0) failed = 1;
      done({ file: relative(ROOT, file), passed, failed, skipped, output: clean, ms: Date.now() - started });
    });
  });
}

// On the embedded database every test file would create a new cluster (about 3 s); build one
// migrated template per run instead and let each file load it.
if (!process.env.DATABASE_URL && !process.env.PIXGATE_TEST_TEMPLATE) {
  const { writeEmbeddedTemplate } = await import('../src/db/database');
  const { migrateToLatest } = await import('../src/db/migrate');
  const file = join(ROOT, '.tmp', 'pglite-template.tar');
  mkdirSync(dirname(file), { recursive: true });
  await writeEmbeddedTemplate(file, (db) => migrateToLatest(db));
  process.env.PIXGATE_TEST_TEMPLATE = file;
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
const workers = Array.from(
  { length: Math.max(1, Math.min(cpus().length, Number(process.env.TEST_JOBS ?? 2))) },
  async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const result = await runFile(file);
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
  },
);
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
process.stdout.write(`wall time: ${((Date.now() - runStarted) / 1000).toFixed(1)} s\n`);
writeFileSync(TIMES_FILE, JSON.stringify({ ...lastTimes, ...Object.fromEntries(results.map((r) => [r.file, r.ms])) }));
process.stdout.write(
  `\n${files.length} files on ${process.env.DATABASE_URL ? 'Postgres (DATABASE_URL)' : 'the embedded database'}\n`,
);
process.stdout.write(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(failed > 0 ? 1 : 0);
