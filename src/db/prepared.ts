// Queries of the hot path, built with Kysely once (typed as any other) and compiled once: a
// run only swaps the parameters. Building and compiling a query object costs more CPU than
// the rest of a simple request's work, and the SQL of these queries never changes shape.
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

// The query `build` makes with `params`, for any values of those parameters. Each parameter
// must reach the SQL as one bound value (not inside an expression Kysely folds, and an array
// as one value: `= any(${ids})`, not `in`).
export function prepared<P extends object, Q extends Compilable<unknown>>(
  names: readonly (keyof P & string)[],
  build: (db: Kysely<Database>, params: P) => Q,
): (db: Kysely<Database>, params: P) => Promise<InferResult<Q>> {
  const markers = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`])) as unknown as P;
  const compiled = build(compiler, markers).compile();
  const slots = compiled.parameters.map((value) =>
    typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : undefined,
  );
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`prepared query: parameter ${name} is not a bound value of its SQL`);
  }
  return async (db, params) => {
    const values = compiled.parameters.map((constant, i) =>
      slots[i] === undefined ? constant : (params as Record<string, unknown>)[slots[i]!],
    );
    const result = await db.executeQuery(CompiledQuery.raw(compiled.sql, values));
    return result.rows as InferResult<Q>;
  };
}
