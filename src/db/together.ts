// Writes of several tables sent as one statement (a data-modifying WITH): each table's SQL
// stays in its own repository, as a query it builds on the creator it is given; the use case
// puts them together so they cost one round trip and commit or fail together.
import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from './schema';

export type WritePart = (qc: QueryCreator<Database>) => { compile(): unknown };

export async function writeTogether(db: Kysely<Database>, parts: WritePart[]): Promise<void> {
  if (parts.length === 0) return;
  await withParts(db, parts, { prefix: 'write' })
    .selectNoFrom(sql<number>`1`.as('written'))
    .execute();
}

// Adds one CTE named `name` whose query the part builds.
type AddPart<DB> = (this: QueryCreator<DB>, name: string, part: WritePart) => QueryCreator<DB>;

// The parts as the CTEs (`<prefix>_<i>`, after those `query` has) of a statement the caller
// finishes (an insert or update that answers rows): they cost no round trip of their own and
// commit or fail with it.
export function withParts<DB extends Database>(
  query: QueryCreator<DB>,
  parts: WritePart[],
  { prefix = 'part' }: { prefix?: string } = {},
): QueryCreator<DB> {
  // The one cast: Kysely types each `with` as adding a table named by the CTE to the query's
  // database type, and a QueryCreator is invariant in that type, so no type fits a query
  // with one CTE per item of a list. The parts are writes the statement never reads by name:
  // the query keeps the tables it had. (A part is typed loosely for the same reason.)
  const addPart = query.with as unknown as AddPart<DB>;
  let withAll = query;
  parts.forEach((part, i) => {
    withAll = addPart.call(withAll, `${prefix}_${i}`, part);
  });
  return withAll;
}
