// Runs every migration of src/db/migrations in name order (timestamps), once. Kysely's
// Migrator takes an advisory lock, so several processes starting together migrate once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileMigrationProvider, type Kysely, Migrator } from 'kysely';

// The schema is named because Kysely looks for its bookkeeping tables in every schema:
// without it, another schema's tables on the same server would be taken for ours.
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: new FileMigrationProvider({ fs, path, migrationFolder: path.join(import.meta.dirname, 'migrations') }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
