// A fresh embedded cluster costs an initdb of about 3 s; loading a saved dump of one about
// 1.2 s, and the migrations 0.7 s more. `make install` saves two templates:
//   - a dump of a pristine cluster (no tables of ours; the migrations still run on it);
//   - a folder holding a cluster with every migration applied, named by a hash of the
//     migration files, which a new data folder is copied from (0.1 s) and opened like an
//     existing one: a first start in about 0.5 s instead of 2 s.
// A new data folder uses the migrated folder when its hash matches the migrations here, else
// the dump, else initdb.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../lib/root';

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(
    readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '../package.json'), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

// One dump per PGlite version: a dump of another version's cluster would not open.
export function initdbTemplatePath(): string {
  return join(PROJECT_ROOT, 'node_modules', '.cache', 'pixgate', `pglite-${pgliteVersion()}-initdb.tgz`);
}

// A data folder that holds no cluster yet (missing or empty).
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}

export function readInitdbTemplate(): Blob | undefined {
  const file = initdbTemplatePath();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

export async function writeInitdbTemplate(): Promise<string> {
  const file = initdbTemplatePath();
  if (existsSync(file)) return file;
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite();
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  mkdirSync(dirname(file), { recursive: true });
  // Written aside and renamed, so a reader never sees half a file.
  writeFileSync(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${file}.${process.pid}`, file);
  return file;
}

// The sources, whether the server runs them or the bundle made from them (`make run`).
const MIGRATIONS = join(PROJECT_ROOT, 'src', 'db', 'migrations');

// The migrated cluster for these migrations (names and contents) and this PGlite version.
export function migratedTemplateDir(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  return join(
    PROJECT_ROOT,
    'node_modules',
    '.cache',
    'pixgate',
    `pglite-${pgliteVersion()}-migrated-${hash.digest('hex').slice(0, 16)}`,
  );
}

// Copies the migrated cluster into a new data folder; false when there is none to copy.
export function seedFromMigratedTemplate(dataDir: string): boolean {
  const template = migratedTemplateDir();
  if (!existsSync(join(template, 'PG_VERSION'))) return false;
  cpSync(template, dataDir, { recursive: true });
  return true;
}

// Builds the migrated cluster aside (`build` opens, migrates and closes a data folder) and
// renames it into place, so a reader never copies half of one; another process that got
// there first wins.
export async function writeMigratedTemplate(build: (dataDir: string) => Promise<void>): Promise<string> {
  const template = migratedTemplateDir();
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const aside = `${template}.${process.pid}`;
  rmSync(aside, { recursive: true, force: true });
  await build(aside);
  try {
    renameSync(aside, template);
  } catch {
    rmSync(aside, { recursive: true, force: true });
  }
  return template;
}
