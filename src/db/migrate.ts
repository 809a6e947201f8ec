// Runs every migration of src/db/migrations in name order (timestamps), once. Kysely's
// Migrator takes an advisory lock, so several processes starting together migrate once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MIGRATION_TABLE, FileMigrationProvider, type Kysely, Migrator, sql } from 'kysely';
import { openDatabase } from './database';
import { dropTemplateDatabases } from './embedded-template';
import { isUndefinedTable } from './errors';
import { withoutTimeouts } from './deadline';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');

// The schema is named because Kysely looks for its bookkeeping tables in every schema:
// without it, another schema's tables on the same server would be taken for ours.
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  if (await everyMigrationApplied(db, schema)) return [];
  // A migration of a large table may run longer than any request's statement: on one
  // connection freed of the statement timeout (Postgres's and this process's bound), which it
  // gets back after.
  return withoutTimeouts(() =>
    db.connection().execute(async (connection) => {
      await sql`set statement_timeout = 0`.execute(connection);
      try {
        return await runMigrations(connection, schema);
      } finally {
        await sql`reset statement_timeout`.execute(connection);
      }
    }),
  );
}

async function runMigrations(db: Kysely<any>, schema: string | undefined): Promise<string[]> {
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

// Every start of an up-to-date database (each start from the migrated template included)
// asked the Migrator, which imports every migration file and introspects the catalog before
// finding nothing to do: about 0.45 s of an embedded start. One read of the names it
// recorded says the same. Read-only, so it needs no lock: anything missing or unexpected
// goes to the Migrator, which locks and decides.
async function everyMigrationApplied(db: Kysely<any>, schema: string | undefined): Promise<boolean> {
  const names = (await fs.readdir(MIGRATIONS))
    .filter((f) => /\.(js|mjs|ts|mts)$/.test(f) && !/\.d\.m?ts$/.test(f))
    .map((f) => f.slice(0, f.lastIndexOf('.')))
    .sort();
  const table = schema ? `${schema}.${DEFAULT_MIGRATION_TABLE}` : DEFAULT_MIGRATION_TABLE;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(db);
    return rows.length === names.length && rows.every((row, i) => row.name === names[i]);
  } catch (error) {
    if (isUndefinedTable(error)) return false;
    throw error;
  }
}

// The cluster `make install` saves for new embedded data folders (src/db/embedded-template.ts):
// every migration applied, and no template databases. The test of that template builds it
// with this too, so it checks the one new data folders are copied from.
export async function buildMigratedCluster(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db, database.schema);
    await dropTemplateDatabases(database.db);
  } finally {
    await database.close();
  }
}
