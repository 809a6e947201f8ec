// The Postgres suite's migrated template: each test server on Postgres gets a schema of its
// own, and migrating one (32 migrations, each its own transaction, the Migrator's lock and
// reads) cost 420-670 ms per server, with the drop 50-320 ms more. Instead the runner
// (scripts/test.ts) migrates one schema per run, pg_dump writes it out as SQL, and each test
// server's schema is that SQL run again under its own name: one statement, about 150 ms.
// The server's start still asks the Migrator's table whether every migration is applied (it
// finds them all), as a start from the embedded template does.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { dropSchema, openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';

// Where the dump names its schema: replaced by each copy's own name.
const PLACEHOLDER = '__pixgate_template_schema__';

// Migrates a new schema, writes it (tables, indexes, functions, triggers and the rows the
// migrations wrote) to `file` as SQL, and drops the schema. Throws when pg_dump is missing or
// refuses (an older pg_dump than the server): the caller then lets each server migrate.
export async function writePostgresTemplate(url: string, file: string): Promise<void> {
  const schema = `pixgate_template_${randomBytes(6).toString('hex')}`;
  try {
    const database = await openDatabase({ url, schema, poolSize: 1 });
    try {
      await migrateToLatest(database.db, schema);
    } finally {
      await database.close();
    }
    const { stdout } = await promisify(execFile)(
      'pg_dump',
      ['--schema', schema, '--no-owner', '--no-privileges', '--inserts', '--dbname', url],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    // Written whole or not at all: test processes of another run may be reading the file.
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, templateSql(stdout, schema));
    // Copied once here: a dump this server cannot run (a newer pg_dump's settings) falls back
    // to migrating, rather than failing every test server.
    const probe = `${schema}_probe`;
    try {
      await createSchemaFromTemplate(url, probe, draft);
      renameSync(draft, file);
    } finally {
      rmSync(draft, { force: true });
      await dropSchema(url, probe);
    }
  } finally {
    await dropSchema(url, schema);
  }
}

// The dump as one multi-statement text: without psql's meta-commands (\restrict and
// \unrestrict, which pg_dump writes since 15.14) and without the setting pg_dump 17 writes
// for any server (an older one refuses it), the schema's name made a placeholder.
function templateSql(dump: string, schema: string): string {
  const statements = dump
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !line.startsWith('SET transaction_timeout'))
    .join('\n');
  if (!statements.includes(`CREATE SCHEMA ${schema};`)) throw new Error(`pg_dump wrote no schema ${schema}`);
  return statements.replaceAll(schema, PLACEHOLDER);
}

const templates = new Map<string, string>();

// Creates `schema` (a name that needs no quotes) as a copy of the template, in one
// transaction: a copy that fails leaves nothing. Its commit does not wait for the disk
// (a test schema is no durable data).
export async function createSchemaFromTemplate(url: string, schema: string, file: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  let template = templates.get(file);
  if (template === undefined) templates.set(file, (template = readFileSync(file, 'utf8')));
  // (bounded: a loaded machine may take seconds to answer; a dead one fails the start)
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`set synchronous_commit = off; begin; ${template.replaceAll(PLACEHOLDER, schema)}; commit`);
  } finally {
    await client.end();
  }
}
