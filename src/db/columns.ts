// Every column of a table, named once and checked complete by the compiler: queries that
// cannot say `*` (prepared statements, src/db/prepared.ts) select these instead.

type Missing<T, C extends readonly PropertyKey[]> = Exclude<keyof T, C[number]>;

// columnsOf<ChargesTable>()(['id', ...]): a compile error names any column left out.
export function columnsOf<T>() {
  return <const C extends readonly (keyof T & string)[]>(
    columns: C & ([Missing<T, C>] extends [never] ? unknown : { missing: Missing<T, C> }),
  ): C => columns;
}

// The columns qualified by their table ('charges.id', ...), as Kysely's select takes them.
export function qualified<const Tb extends string, const C extends string>(
  table: Tb,
  columns: readonly C[],
): `${Tb}.${C}`[] {
  return columns.map((c) => `${table}.${c}` as const);
}
