// The audit of a company's features: every change (by a platform operator, or by the sandbox
// company itself) keeps who made it, the list before and after, and when.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_feature_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    // OPERATOR (the operator token) or SANDBOX (the company's own application, sandbox mode).
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('features_before', 'jsonb', (c) => c.notNull())
    .addColumn('features_after', 'jsonb', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_feature_changes_company')
    .on('company_feature_changes')
    .columns(['company_id', 'changed_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('company_feature_changes').execute();
}
