// Writes of several tables sent as one statement (a data-modifying WITH): each table's SQL
// stays in its own repository, as a query it builds on the creator it is given; the use case
// puts them together so they cost one round trip and commit or fail together.
import { type Kysely, type QueryCreator, sql } from 'kysely';
import type { Database } from './schema';

export type WritePart = (qc: QueryCreator<Database>) => { compile(): unknown };

export async function writeTogether(db: Kysely<Database>, parts: WritePart[]): Promise<void> {
  if (parts.length === 0) return;
  // Kysely types each CTE by name; the parts return nothing the statement reads.
  let query = db as unknown as {
    with(name: string, part: WritePart): typeof query;
    selectNoFrom: Kysely<Database>['selectNoFrom'];
  };
  parts.forEach((part, i) => {
    query = query.with(`write_${i}`, part);
  });
  await query.selectNoFrom(sql<number>`1`.as('written')).execute();
}

// The parts as the CTEs of a statement the caller finishes (an insert or update that answers
// rows): they cost no round trip of their own and commit or fail with it.
export function withParts(db: Kysely<Database>, parts: WritePart[]): QueryCreator<Database> {
  let query = db as unknown as { with(name: string, part: WritePart): typeof query };
  parts.forEach((part, i) => {
    query = query.with(`part_${i}`, part);
  });
  return query as unknown as QueryCreator<Database>;
}
