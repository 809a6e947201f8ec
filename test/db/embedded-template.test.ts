// A new embedded data folder starts from the migrated cluster saved by `make install` (or
// built here when missing): it opens as new (fresh), holds only the database the server uses,
// needs no migration (one read says so) and has our tables; reopened, it is no longer new.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../src/db/database';
import { migratedTemplateDir, writeMigratedTemplate } from '../../src/db/embedded-template';
import { buildMigratedCluster, migrateToLatest } from '../../src/db/migrate';
import { countStatements } from '../../src/db/statement-counter';

const root = mkdtempSync(join(tmpdir(), 'pixgate-template-'));
test.after(() => rmSync(root, { recursive: true, force: true }));

test('a new data folder is copied from the migrated cluster: new, migrated, then reopened as not new', async () => {
  const template = await writeMigratedTemplate(buildMigratedCluster);
  assert.is(template, migratedTemplateDir());
  const dataDir = join(root, 'data');
  const first = await openDatabase({ dataDir });
  assert.is(first.fresh, true);
  // Up to date: one read of the recorded names, no Migrator (its imports and introspection).
  const tally = { statements: 0 };
  const applied = await countStatements(tally, () => migrateToLatest(first.db, first.schema));
  assert.equal(applied, [], 'every migration is already applied');
  assert.is(tally.statements, 1);
  const databases = await sql<{ datname: string }>`select datname from pg_database`.execute(first.db);
  assert.equal(databases.rows, [{ datname: 'postgres' }], 'no template databases copied');
  // Only the platform's own (the ledger's counter-accounts): no customer company yet.
  const count = await sql<{ n: number }>`select count(*)::int as n from companies where id not like '@%'`.execute(
    first.db,
  );
  assert.equal(count.rows, [{ n: 0 }]);
  await first.close();
  const again = await openDatabase({ dataDir });
  assert.is(again.fresh, false);
  await again.close();
});

test.run();
