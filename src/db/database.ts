// Opens the database: a real Postgres server when DATABASE_URL is set, otherwise an
// embedded PGlite that keeps its files in PIXGATE_DATA_DIR (or memory, for tests).
// Both drivers return the same JS types: int8 as number (cents fit in 2^53), numeric as
// string, date as 'YYYY-MM-DD', timestamps as Date.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { PGliteDialect } from './pglite-dialect';
import { SearchPathPostgresDialect } from './scoped-introspector';
import { CountedDialect, countStatement } from './statement-counter';
import { runPreparedDirectly } from './prepared';
import { PreparingClient } from './preparing-client';
import { type ChangeFeed, EmbeddedChangeFeed, PostgresChangeFeed, channelOf } from './change-feed';
import { isNewDataDir, readInitdbTemplate, seedFromMigratedTemplate } from './embedded-template';
import { lockDataDir } from './data-dir-lock';

export type DatabaseKind = 'postgres' | 'embedded';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  // The Postgres schema the tables live in (public unless a test chose another).
  schema: string | undefined;
  // Embedded: the data folder was new (started from a template or initdb) at this opening.
  fresh: boolean;
  // What every process must hear at once (src/db/change-feed.ts).
  changes: ChangeFeed;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url?: string;
  // Embedded only: the folder for the data; undefined keeps it in memory.
  dataDir?: string;
  // Embedded, in memory only: start from this dump of a data folder (tests load a migrated
  // template instead of creating a new cluster each time: about 0.5 s instead of 3 s).
  templateFile?: string;
  // Postgres only: work inside this schema (created when missing) instead of public.
  schema?: string;
  poolSize?: number;
  // Postgres: told when the connection that listens for changes fails (it reconnects).
  onFeedError?: (error: Error) => void;
}

const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.url ? openPostgres(options.url, options) : openEmbedded(options.dataDir, options.templateFile);
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8) return (v: string) => Number(v);
      if (oid === DATE || oid === NUMERIC) return (v: string) => v;
      return pg.types.getTypeParser(oid, format);
    },
  };
  if (options.schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists "${options.schema}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    Client: PreparingClient,
    ...(options.schema ? { options: `-c search_path="${options.schema}"` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new CountedDialect(new SearchPathPostgresDialect({ pool })) });
  runPreparedDirectly(db, directRunnerOf(pool));
  const changes = new PostgresChangeFeed(url, channelOf(options.schema), options.onFeedError);
  try {
    await changes.start();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    kind: 'postgres',
    schema: options.schema ?? 'public',
    fresh: false,
    changes,
    async close() {
      await changes.close();
      await db.destroy();
    },
  };
}

// The hot path's prepared queries outside a transaction (src/db/prepared.ts), counted as any
// statement: Kysely's executor, connection provider and counted driver add five suspended
// async frames and as many promises per query. A failed query releases its connection for
// reuse, as Kysely does (pool.query would close it, and its prepared statements with it).
function directRunnerOf(pool: pg.Pool) {
  return async (text: string, values: unknown[]): Promise<unknown[]> => {
    countStatement(text);
    const client = await pool.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      client.release();
    }
  };
}

// Postgres's shared buffers live in the embedded database's WebAssembly memory and are all
// touched at start: the default 128 MB made the server's resident memory about 450 MB. The
// operating system caches the data files anyway. That memory never shrinks either: ANALYZE
// (src/db/statistics.job.ts) samples 300 rows per statistics target, 30,000 rows of a
// table by default, which touched 20 MB more of it; 3,000 rows give the planner what it needs.
const EMBEDDED_SETTINGS = [
  `shared_buffers=${process.env.PIXGATE_EMBEDDED_SHARED_BUFFERS ?? '16MB'}`,
  'default_statistics_target=10',
];

async function openEmbedded(dataDir: string | undefined, templateFile: string | undefined): Promise<DatabaseHandle> {
  // A new data folder starts from the saved migrated cluster, else the pristine one. The copy
  // starts first: it runs in a worker thread while this one loads PGlite and, in the caller,
  // compiles the request validators.
  const fresh = dataDir !== undefined && isNewDataDir(dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Before PGlite touches a file: another process on this folder would corrupt it.
  const release = dataDir ? lockDataDir(dataDir) : () => undefined;
  try {
    return await openEmbeddedLocked(dataDir, templateFile, fresh, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function openEmbeddedLocked(
  dataDir: string | undefined,
  templateFile: string | undefined,
  fresh: boolean,
  release: () => void,
): Promise<DatabaseHandle> {
  const seeding = fresh && dataDir ? seedFromMigratedTemplate(dataDir) : Promise.resolve(false);
  seeding.catch(() => undefined); // awaited below, after the import
  const { PGlite } = await import('@electric-sql/pglite');
  const seeded = await seeding;
  const initdb = fresh && !seeded ? readInitdbTemplate() : undefined;
  const parsers = { [DATE]: (v: string) => v, [NUMERIC]: (v: string) => v, [INT8]: (v: string) => Number(v) };
  // new PGlite(undefined, options) drops the date parser: pass the options alone in memory.
  const settings = { parsers, postgresqlconf: EMBEDDED_SETTINGS };
  const pglite = dataDir
    ? new PGlite(dataDir, { ...settings, ...(initdb ? { loadDataDir: initdb } : {}) })
    : new PGlite({ ...settings, ...(templateFile ? { loadDataDir: new Blob([readFileSync(templateFile)]) } : {}) });
  const db = new Kysely<Database>({
    dialect: new CountedDialect(new PGliteDialect(async () => (await pglite.waitReady, pglite))),
  });
  const changes = new EmbeddedChangeFeed(channelOf(undefined));
  await pglite.waitReady;
  await changes.start(pglite);
  return {
    db,
    kind: 'embedded',
    schema: undefined,
    fresh,
    changes,
    async close() {
      await changes.close();
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}

// Drops a test schema of the real Postgres (tests only).
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export { sql };

// Writes a dump of a new embedded database, migrated, for tests to start from.
export async function writeEmbeddedTemplate(
  file: string,
  migrate: (db: Kysely<Database>) => Promise<unknown>,
): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const initdb = readInitdbTemplate();
  const pglite = new PGlite(initdb ? { loadDataDir: initdb } : {});
  const db = new Kysely<Database>({ dialect: new PGliteDialect(async () => (await pglite.waitReady, pglite)) });
  await migrate(db);
  await db.destroy();
  const dump = await pglite.dumpDataDir('none');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
}
