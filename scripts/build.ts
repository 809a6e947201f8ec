// `make run` runs the server as plain JavaScript: src/main.ts bundled into dist/main.js (the
// packages stay imports of node_modules) and each migration beside it in dist/migrations,
// where the bundled migrator looks for them. Running the sources under tsx kept its loader
// thread and the transpiled sources in the server process: about 40 MB of resident memory.
// Tests and scripts still run the sources with tsx. Usage: tsx scripts/build.ts [--out DIR]
// (DIR inside the project, default dist).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../src/lib/root';

const out = process.argv.indexOf('--out');
const DIST = out > 0 ? resolve(process.argv[out + 1]!) : join(PROJECT_ROOT, 'dist');
const MIGRATIONS = join(PROJECT_ROOT, 'src', 'db', 'migrations');

const started = performance.now();
rmSync(DIST, { recursive: true, force: true });
// Without keepNames: it wrapped every function made at run time in a __name() call (a closure
// per request, a timer per statement), about 5% of a read's server CPU (scripts/bench-ab.ts,
// five pairs). Nothing reads a function's name; the bundle renames no class (esbuild renames
// only on a clash of top-level names, and jose's error classes, named by their constructor,
// have none).
const common = { platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const;
// Two pure ES-module packages of many small files go into the bundle: Node resolves and
// compiles each file of a package on its own, and kysely's 400 files took 95 ms of every start
// (13 ms bundled), jose's 35 ms (8 ms). The rest stay imports: some find their own files at
// run time (PGlite's WebAssembly, swagger-ui's assets) or are CommonJS.
const BUNDLED = new Set(['kysely', 'jose']);
const { dependencies } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
await build({
  ...common,
  entryPoints: [join(PROJECT_ROOT, 'src', 'main.ts')],
  bundle: true,
  external: Object.keys(dependencies).filter((name) => !BUNDLED.has(name)),
  outfile: join(DIST, 'main.js'),
});
// Migrations import only kysely: each is compiled alone, its file name (its migration name) kept.
await build({
  ...common,
  entryPoints: readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(MIGRATIONS, name)),
  outdir: join(DIST, 'migrations'),
});
process.stderr.write(`built ${DIST} in ${Math.round(performance.now() - started)} ms\n`);
