// A fresh embedded cluster costs an initdb of about 3 s; loading a saved dump of one about
// 1.2 s, and the migrations 0.7 s more. `make install` saves two templates:
//   - a dump of a pristine cluster (no tables of ours; the migrations still run on it);
//   - a folder holding a cluster with every migration applied and no template databases,
//     named by a hash of the migration files, which a new data folder is copied from (about
//     0.4 s here, beside the rest of the start) and opened like an existing one.
// A new data folder uses the migrated folder when its hash matches the migrations here, else
// the dump, else initdb.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Kysely, sql } from 'kysely';
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

const TEMPLATE_LAYOUT = 2;

// The migrated cluster for these migrations (names and contents) and this PGlite version.
export function migratedTemplateDir(): string {
  // The layout of the saved cluster is part of its name: a change to what it holds (such as
  // dropping the template databases) makes a new one.
  const hash = createHash('sha256').update(`layout ${TEMPLATE_LAYOUT}`);
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
// The copy is file creation in the kernel (about 0.4 s for 670 files here): done by cpSync
// in a worker thread, it runs beside the main thread's own start-up work (the request
// validators), where an asynchronous copy on the main thread needed a turn of the event loop
// for every file and took longer than a synchronous one.
export function seedFromMigratedTemplate(dataDir: string): Promise<boolean> {
  const template = migratedTemplateDir();
  if (!existsSync(join(template, 'PG_VERSION'))) return Promise.resolve(false);
  return new Promise((ok, fail) => {
    const worker = new Worker(COPY_IN_WORKER, { eval: true, workerData: { from: template, to: dataDir } });
    worker.once('error', fail);
    worker.once('exit', (code) => (code === 0 ? ok(true) : fail(new Error(`copying ${template} exited with ${code}`))));
  });
}

const COPY_IN_WORKER = `
const { cpSync } = require('node:fs');
const { workerData } = require('node:worker_threads');
cpSync(workerData.from, workerData.to, { recursive: true });
`;

// A migrated cluster holds the one database the server uses: template0 and template1 serve
// only CREATE DATABASE, which the embedded server never runs, and they were 600 of the
// 1,270 files every new data folder copied (about half of the copy's time).
export async function dropTemplateDatabases(db: Kysely<any>): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await sql`alter database ${sql.id(name)} is_template false`.execute(db);
    await sql`drop database ${sql.id(name)}`.execute(db);
  }
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
  removeOtherMigratedTemplates(template);
  return template;
}

// Templates of earlier migrations or layouts (40 MB each) go once this one is in place; a
// folder still being built (a name with a dot: `<template>.<pid>`) is another process's.
function removeOtherMigratedTemplates(current: string): void {
  const folder = dirname(current);
  for (const name of readdirSync(folder)) {
    if (/^pglite-.+-migrated-[0-9a-f]+$/.test(name) && join(folder, name) !== current) {
      rmSync(join(folder, name), { recursive: true, force: true });
    }
  }
}
