// Counts the statements (round trips) each unit of work sends to the database: a request,
// a job run. On these machines a round trip costs far more than the SQL it carries, so the
// count is what the round-trip budgets (test/budgets) hold each operation to, and what the
// request log reports. The count follows the async context: work started inside a scope is
// counted there, whichever connection it runs on. BEGIN, COMMIT, ROLLBACK and savepoints
// count like any other statement: each is a round trip.
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { checkDeadline } from './deadline';

export interface StatementTally {
  statements: number;
  // When present, the text of each statement is kept too (the request log at trace level).
  texts?: string[];
}

const scope = new AsyncLocalStorage<StatementTally>();

// Runs `work` with a new tally that every statement it causes adds to.
export function countStatements<T>(tally: StatementTally, work: () => Promise<T>): Promise<T> {
  return scope.run(tally, work);
}

// Runs `work` outside any tally: background work a request starts (the request log's batch
// writer woken by a full batch) is not that request's round trip.
export function outsideStatementCount<T>(work: () => T): T {
  return scope.exit(work);
}

// Counts one statement sent without the counted dialect (src/db/prepared.ts's direct runner).
export function countStatement(text: string): void {
  tick(text);
}

function tick(text?: string): void {
  const tally = scope.getStore();
  if (!tally) return;
  tally.statements++;
  tally.texts?.push(text ?? '(transaction control)');
}

// The rejection of a statement past its request's deadline, else undefined.
function refusedPastDeadline(text: string): Promise<never> | undefined {
  try {
    checkDeadline(text);
    return undefined;
  } catch (error) {
    return Promise.reject(error);
  }
}

class CountedConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const refused = refusedPastDeadline(query.sql);
    if (refused) return refused;
    tick(query.sql);
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    checkDeadline(query.sql);
    tick(query.sql);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const innerOf = (connection: DatabaseConnection) =>
  connection instanceof CountedConnection ? connection.inner : connection;

// The driver hands out counted connections and unwraps them again for its own calls, so a
// statement is counted once however the inner driver issues it.
class CountedDriver implements Driver {
  constructor(private readonly inner: Driver) {
    for (const verb of ['savepoint', 'rollbackToSavepoint', 'releaseSavepoint'] as const) {
      const run = inner[verb]?.bind(inner);
      if (run) {
        this[verb] = (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) => {
          // Rolling back to a savepoint is how a failure is undone: it always goes.
          const refused = verb === 'rollbackToSavepoint' ? undefined : refusedPastDeadline(verb);
          if (refused) return refused;
          tick();
          return run(innerOf(connection), name, compile);
        };
      }
    }
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new CountedConnection(await this.inner.acquireConnection());
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const refused = refusedPastDeadline('begin');
    if (refused) return refused;
    tick('begin');
    return this.inner.beginTransaction(innerOf(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    const refused = refusedPastDeadline('commit');
    if (refused) return refused;
    tick('commit');
    return this.inner.commitTransaction(innerOf(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    tick('rollback');
    return this.inner.rollbackTransaction(innerOf(connection));
  }

  // Savepoints only where the inner driver has them (Kysely refuses them otherwise).
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

// Wraps a dialect so that every statement of its connections is counted.
export class CountedDialect implements Dialect {
  constructor(private readonly inner: Dialect) {}

  createDriver(): Driver {
    return new CountedDriver(this.inner.createDriver());
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
