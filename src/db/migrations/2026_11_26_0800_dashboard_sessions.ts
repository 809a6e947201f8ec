// Sessions of the dashboard (/dashboard): one row per signed-in browser. The cookie carries a
// random id; only its SHA-256 is stored (a copy of this table signs nobody in). A session names
// the application and company it acts as, never the credential that opened it. It ends when
// signed out, idle too long (last_seen_at) or too old (created_at), as the configuration says.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Expired sessions are swept by age.
  await db.schema.createIndex('dashboard_sessions_created').on('dashboard_sessions').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dashboard_sessions').execute();
}
