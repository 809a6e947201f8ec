// A Kysely dialect over PGlite, Postgres compiled to WebAssembly and run in-process.
// PGlite has a single session, so one connection exists and callers queue for it: a
// transaction holds it until commit, and a query on `db` issued inside a transaction waits
// for that transaction (always use the transaction object).
import { parse, type PGlite, protocol } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type Kysely,
  type TransactionSettings,
} from 'kysely';
import { preparedStatementName } from './prepared';

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
// What Kysely's query builder makes (not raw SQL: BEGIN, DDL, one-off statements); the
// hot path's prepared queries (src/db/prepared.ts) come as raw SQL and are prepared too.
const BUILT = new Set([...WRITES, 'SelectQueryNode']);
// Postgres refuses a cached plan whose result columns changed (a table altered since).
const PLAN_CHANGED = '0A000';

class PGliteConnection implements DatabaseConnection {
  private readonly statements: PreparedStatements;

  constructor(private readonly pglite: PGlite) {
    this.statements = new PreparedStatements(pglite);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const kind = query.query.kind;
    const values = query.parameters as unknown[];
    const result =
      BUILT.has(kind) || preparedStatementName(query.sql) !== undefined
        ? await this.statements.run<R>(query.sql, values)
        : await this.pglite.query<R>(query.sql, values);
    const writes = WRITES.has(kind);
    return {
      rows: result.rows,
      ...(writes && result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

type Results<R> = Awaited<ReturnType<PGlite['query']>> & { rows: R[] };

// The statements Kysely builds, parsed once as named prepared statements of the one session:
// pglite.query parses and plans every statement again, in five calls into the WebAssembly
// module (parse, describe, bind, describe, execute) and a sync; a prepared statement runs in
// one (bind, describe, execute, sync) on its cached plan. The set is bounded: past its size
// every statement is deallocated and prepared again when next used.
class PreparedStatements {
  private readonly byText = new Map<string, { name: string; types: number[] }>();
  private sequence = 0;

  constructor(
    private readonly pglite: PGlite,
    private readonly max = 500,
  ) {}

  run<R>(text: string, values: unknown[]): Promise<Results<R>> {
    return this.pglite.runExclusive(async () => {
      try {
        return await this.execute<R>(await this.statementOf(text), values);
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        if (code !== PLAN_CHANGED || !/cached plan/.test(message ?? '')) throw error;
        this.byText.delete(text);
        return this.execute<R>(await this.statementOf(text), values);
      }
    });
  }

  private async execute<R>(statement: { name: string; types: number[] }, values: unknown[]): Promise<Results<R>> {
    const { serializers, parsers } = this.pglite;
    const serialized = values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = serializers[statement.types[i]!];
      return serialize ? serialize(value) : String(value);
    });
    const { messages } = await this.pglite.execProtocol(
      Buffer.concat([
        protocol.serialize.bind({ statement: statement.name, values: serialized }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, parsers)[0] as Results<R>;
  }

  private async statementOf(text: string): Promise<{ name: string; types: number[] }> {
    const known = this.byText.get(text);
    if (known) return known;
    if (this.byText.size >= this.max) {
      await this.pglite.execProtocol(protocol.serialize.query('deallocate all'));
      this.byText.clear();
    }
    const name = `k${++this.sequence}`;
    const { messages } = await this.pglite.execProtocol(
      Buffer.concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    this.byText.set(text, statement);
    return statement;
  }
}

class PGliteDriver implements Driver {
  private connection: PGliteConnection | undefined;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(private readonly open: () => Promise<PGlite>) {}

  async init(): Promise<void> {
    this.connection = new PGliteConnection(await this.open());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.release = release;
    return this.connection!;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  constructor(private readonly open: () => Promise<PGlite>) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.open);
  }

  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
