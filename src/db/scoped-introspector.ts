// Kysely's Postgres introspector reads every schema of the server and calls
// has_schema_privilege() by name on each: when another process drops its schema at that
// moment (tests and sandboxes sharing one Postgres), start-up fails with "schema does not
// exist". The Migrator only needs the names of tables in our own search path, so this
// introspector asks for those alone, by oid, with no name lookups.
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  type TableMetadata,
  sql,
} from 'kysely';

class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ns.nspname = any (current_schemas(false))`.execute(this.db);
    // Columns are not read: the Migrator only checks that its tables exist.
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
