// The Postgres suite's servers start on copies of one migrated schema (test/support/
// postgres-template.ts): a copy must be what the migrations make, object for object, or the
// suite would test another database than the one deployments run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dropSchema, openDatabase } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { runsOnlyIf } from '../support/skip';
import { createSchemaFromTemplate, writePostgresTemplate } from '../support/postgres-template';

const url = process.env.DATABASE_URL;
const postgresOnly = runsOnlyIf(
  Boolean(url),
  'needs Postgres (DATABASE_URL): the template is a schema of the Postgres the suite runs on',
);
const migrated = `t_${randomBytes(6).toString('hex')}`;
const copied = `t_${randomBytes(6).toString('hex')}`;
const folder = mkdtempSync(join(tmpdir(), 'pixgate-pg-template-'));

test.after(async () => {
  if (url) await Promise.all([dropSchema(url, migrated), dropSchema(url, copied)]);
  rmSync(folder, { recursive: true, force: true });
});

async function connected(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

// Every object of a schema as text, its name taken out: columns, constraints, indexes,
// triggers, functions, sequences and the Migrator's record.
async function describe(client: pg.Client, schema: string): Promise<string[]> {
  const texts = [
    `select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
         coalesce(column_default, '') as d from information_schema.columns where table_schema = $1`,
    `select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as d
         from pg_constraint where connamespace = $1::regnamespace`,
    `select indexdef as d from pg_indexes where schemaname = $1`,
    `select tgrelid::regclass::text || ' ' || pg_get_triggerdef(t.oid) as d from pg_trigger t
         join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace and not t.tgisinternal`,
    `select proname || ' ' || prosrc as d from pg_proc where pronamespace = $1::regnamespace`,
    `select sequencename || ' ' || coalesce(last_value, 0) as d from pg_sequences where schemaname = $1`,
    `select name as d from "${schema}".kysely_migration`,
  ];
  const found: string[] = [];
  // (one client answers one query at a time)
  for (const text of texts)
    for (const row of (await client.query<{ d: string }>(text, text.includes('$1') ? [schema] : [])).rows)
      found.push(row.d.replaceAll(schema, 'S'));
  return found.sort();
}

postgresOnly('a copy of the template holds every object the migrations make, and their record', async () => {
  const database = await openDatabase({ url: url!, schema: migrated, poolSize: 1 });
  try {
    await migrateToLatest(database.db, migrated);
  } finally {
    await database.close();
  }
  const file = join(folder, 'template.sql');
  await writePostgresTemplate(url!, file);
  await createSchemaFromTemplate(url!, copied, file);
  const client = await connected();
  try {
    const want = await describe(client, migrated);
    const got = await describe(client, copied);
    assert.ok(want.length > 300, `the migrated schema has ${want.length} objects`);
    assert.equal(got, want);
  } finally {
    await client.end();
  }
});

postgresOnly('a copy that cannot be made leaves no schema behind', async () => {
  const file = join(folder, 'broken.sql');
  writeFileSync(
    file,
    'CREATE SCHEMA __pixgate_template_schema__; CREATE TABLE __pixgate_template_schema__.x (y nope);',
  );
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const refusal = await createSchemaFromTemplate(url!, schema, file).then(
    () => undefined,
    (error: Error) => error,
  );
  assert.match(String(refusal?.message), /nope/);
  const client = await connected();
  try {
    const { rows } = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
    assert.equal(rows.length, 0);
  } finally {
    await client.end();
  }
});

test.run();
