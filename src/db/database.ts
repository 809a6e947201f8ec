// Opens the database: a real Postgres server when DATABASE_URL is set, otherwise an
// embedded PGlite that keeps its files in PIXGATE_DATA_DIR (or memory, for tests).
// Both drivers return the same JS types: int8 as number (cents fit in 2^53), numeric as
// string, date as 'YYYY-MM-DD', timestamps as Date.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { PGliteDialect } from './pglite-dialect';
import { SearchPathPostgresDialect } from './scoped-introspector';
import { CountedDialect, countStatement } from './statement-counter';
import { runPreparedDirectly } from './prepared';
import { PreparingClient, type PreparingClientConfig } from './preparing-client';
import { checkDeadline } from './deadline';
import { type ChangeFeed, EmbeddedChangeFeed, PostgresChangeFeed, channelOf, destroyConnection } from './change-feed';
import { patientTimeout } from '../lib/patient-timer';
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
  // Postgres: how long to wait for the server (PIXGATE_DB_* in the README); defaults below.
  timeouts?: Partial<DatabaseTimeouts>;
  // Postgres: the application_name of the pool's sessions (pg_stat_activity); default
  // PGAPPNAME, else pixgate.
  applicationName?: string;
  // Postgres: told when the connection that listens for changes fails (it reconnects).
  onFeedError?: (error: Error) => void;
  // Postgres: told when a connection of the pool breaks (it is discarded, never reused).
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseTimeouts {
  // Opening a connection (a request waiting for a free one of the pool has its deadline).
  connectMs: number;
  // Postgres's statement_timeout: it cancels a statement (and its transaction) running longer.
  statementMs: number;
  // Postgres's idle_in_transaction_session_timeout: ends a session left inside a transaction.
  idleInTransactionMs: number;
  // TCP keep-alive idle time of every connection, and the change feed's heartbeat interval.
  keepAliveMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectMs: 5000,
  statementMs: 10_000,
  idleInTransactionMs: 10_000,
  keepAliveMs: 10_000,
};

// The client waits this much longer than statement_timeout for an answer, so that Postgres's
// own cancellation (a clean rollback) normally comes first; past it the connection is given up.
const STATEMENT_GRACE_MS = 2000;

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
  const timeouts = { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts };
  if (options.schema) await createSchema(url, options.schema, timeouts);
  const onBroken = options.onConnectionError ?? (() => undefined);
  const config: PreparingClientConfig & pg.PoolConfig = {
    connectionString: url,
    max: options.poolSize ?? 10,
    types,
    Client: PreparingClient,
    application_name: options.applicationName ?? (process.env.PGAPPNAME || 'pixgate'),
    ...connectionSettings(timeouts),
    ...(timeouts.statementMs ? { statement_timeout: timeouts.statementMs } : {}),
    ...(timeouts.idleInTransactionMs ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs } : {}),
    bounds: {
      connectMs: timeouts.connectMs,
      statementBoundMs: timeouts.statementMs ? timeouts.statementMs + STATEMENT_GRACE_MS : 0,
      onBroken,
    },
    ...(options.schema ? { options: `-c search_path="${options.schema}"` } : {}),
  };
  const pool = new pg.Pool(config);
  // An idle connection that breaks is removed by the pool, which then emits 'error' here;
  // the client itself already reported it (PreparingClient). Unheard, it would end the process.
  pool.on('error', () => undefined);
  const clients = discardingPool(pool);
  const db = new Kysely<Database>({ dialect: new CountedDialect(new SearchPathPostgresDialect({ pool: clients })) });
  runPreparedDirectly(db, directRunnerOf(clients));
  const changes = new PostgresChangeFeed(url, channelOf(options.schema), options.onFeedError, {
    ...connectionSettings(timeouts),
    connectMs: timeouts.connectMs,
    heartbeatMs: timeouts.keepAliveMs,
  });
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

// What every connection of the server is opened with: TCP keep-alive. Connecting is bounded
// by each kind of client itself (src/lib/patient-timer.ts says why not connectionTimeoutMillis).
function connectionSettings(timeouts: DatabaseTimeouts) {
  return { keepAlive: true, keepAliveInitialDelayMillis: timeouts.keepAliveMs };
}

async function createSchema(url: string, schema: string, timeouts: DatabaseTimeouts): Promise<void> {
  const admin = new pg.Client({ connectionString: url, ...connectionSettings(timeouts) });
  // A connection lost meanwhile fails the query below; unheard, its 'error' ends the process.
  admin.on('error', () => undefined);
  const giveUp = patientTimeout(() => destroyConnection(admin), timeouts.connectMs);
  try {
    await admin.connect();
  } finally {
    giveUp.clear();
  }
  try {
    await admin.query(`create schema if not exists "${schema}"`);
  } finally {
    await admin.end();
  }
}

type PoolClient = pg.PoolClient & PreparingClient;

// The pool as Kysely and the direct runner use it: a client that broke while checked out is
// discarded when released (release(err)), never handed out again.
function discardingPool(pool: pg.Pool) {
  const discardIfBroken = (client: PoolClient): PoolClient => {
    const release = client.release;
    client.release = (err?: Error | boolean) => release(err || client.broken);
    return client;
  };
  return {
    connect: () => pool.connect().then((client) => discardIfBroken(client as PoolClient)),
    end: () => pool.end(),
  };
}

// The hot path's prepared queries outside a transaction (src/db/prepared.ts), counted as any
// statement: Kysely's executor, connection provider and counted driver add five suspended
// async frames and as many promises per query. A failed query releases its connection for
// reuse, as Kysely does (pool.query would close it, and its prepared statements with it),
// unless the connection broke.
function directRunnerOf(pool: ReturnType<typeof discardingPool>) {
  return async (text: string, values: unknown[]): Promise<unknown[]> => {
    checkDeadline(text);
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

// A template (a dump of a data folder) read once per process: reading its 29 MB and copying
// them into a Blob cost about 230 ms of each test server's start, and PGlite's reading them
// back (Node's Blob.arrayBuffer pulls and concatenates chunks) about 190 ms more. Each server
// gets its own copy of the bytes (a memory copy), as a new Blob would give it. A template
// written again (another mtime or size) is read again.
class TemplateBlob extends Blob {
  constructor(private readonly contents: Buffer) {
    super([contents]);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.contents;
    return Promise.resolve(buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer);
  }
}

let template: { key: string; blob: Blob } | undefined;

function templateBlob(file: string): Blob {
  const { mtimeMs, size } = statSync(file);
  const key = `${file} ${mtimeMs} ${size}`;
  if (template?.key !== key) template = { key, blob: new TemplateBlob(readFileSync(file)) };
  return template.blob;
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
    : new PGlite({ ...settings, ...(templateFile ? { loadDataDir: templateBlob(templateFile) } : {}) });
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
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // (a test schema is no durable data: the commit does not wait for the disk)
    await client.query(`set synchronous_commit = off; drop schema if exists "${schema}" cascade`);
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
