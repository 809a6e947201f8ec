// Queries of the hot path, built with Kysely once (typed as any other) and compiled once: a
// run only swaps the parameters. Building and compiling a query object costs more CPU than
// the rest of a simple request's work, and the SQL of these queries never changes shape.
// On Postgres they also run as named prepared statements (src/db/preparing-client.ts): parsing
// and planning a join costs the server several times what executing it does.
import { createHash } from 'node:crypto';
import {
  CompiledQuery,
  type Compilable,
  DummyDriver,
  type InferResult,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Database } from './schema';

// Compiles only; never connects.
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const MARK = '\u0000pixgate-parameter:';

// Runs a prepared query's SQL outside a transaction, where a database offers a quicker way than
// Kysely's executor (src/db/database.ts); a transaction's queries always go through Kysely.
export type DirectRunner = (sqlText: string, values: unknown[]) => Promise<unknown[]>;
const directRunners = new WeakMap<Kysely<Database>, DirectRunner>();

export function runPreparedDirectly(db: Kysely<Database>, run: DirectRunner): void {
  directRunners.set(db, run);
}

// The SQL of every prepared query and the name its statement is prepared under.
const statementNames = new Map<string, string>();

export function preparedStatementName(sqlText: string): string | undefined {
  return statementNames.get(sqlText);
}

// A prepared statement's columns are fixed when it is parsed: `*` would be expanded then, and
// a column added by a later migration would fail it ("cached plan must not change result
// type") on every connection that prepared it. Prepared queries name their columns.
const STAR = /(^|[\s,])("[^"]+"\.)?\*/;

// The query `build` makes with `params`, for any values of those parameters. Each parameter
// must reach the SQL as one bound value (not inside an expression Kysely folds, and an array
// as one value: `= any(${ids})`, not `in`).
export function prepared<P extends object, Q extends Compilable<unknown>>(
  names: readonly (keyof P & string)[],
  build: (db: Kysely<Database>, params: P) => Q,
): (db: Kysely<Database>, params: P) => Promise<InferResult<Q>> {
  // The one cast here: `build` is run once with a marker string in place of each parameter's
  // value (whatever its type), to find where the value lands among the bound values; the
  // markers never reach a database, and each run binds the real values in their places.
  const markers = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`])) as unknown as P;
  const compiled = build(compiler, markers).compile();
  if (STAR.test(compiled.sql)) throw new Error(`prepared query: name its columns instead of *: ${compiled.sql}`);
  // The parameter each bound value is (undefined: a constant of the SQL).
  const slots = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? names.find((n) => MARK + n === value) : undefined,
  );
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`prepared query: parameter ${name} is not a bound value of its SQL`);
  }
  statementNames.set(compiled.sql, `px_${createHash('sha1').update(compiled.sql).digest('hex').slice(0, 16)}`);
  return async (db, params) => {
    const values = compiled.parameters.map((constant, i) => (slots[i] === undefined ? constant : params[slots[i]!]));
    const direct = directRunners.get(db);
    if (direct) return (await direct(compiled.sql, values)) as InferResult<Q>;
    const result = await db.executeQuery(CompiledQuery.raw(compiled.sql, values));
    return result.rows as InferResult<Q>;
  };
}
