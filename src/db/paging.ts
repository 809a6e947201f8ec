// The repository side of src/lib/paging.ts: a page of a list and the count of the whole list in
// one statement (a window count), instead of a second statement that repeats the filters.
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Page } from '../lib/paging';

export interface PagedRows<O> {
  rows: O[];
  total: number;
}

export interface PagedRowsOptions {
  // The count when the page is empty past the list's end (skip > 0): the window count has no
  // row to ride on there. Without it such a page counts 0.
  countPastEnd?: () => Promise<number>;
}

// `query` is the list, filtered and ordered; the page is applied here.
export async function pagedRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: Page,
  options: PagedRowsOptions = {},
): Promise<PagedRows<O>> {
  const rows = await query
    .select(sql<string>`count(*) over ()`.as('paged_total'))
    .$castTo<O & { paged_total: string }>()
    .offset(page.skip)
    .limit(page.limit)
    .execute();
  const first = rows[0];
  const total = first
    ? Number(first.paged_total)
    : page.skip > 0 && options.countPastEnd
      ? await options.countPastEnd()
      : 0;
  // The rows as the list selected them, without the count.
  for (const row of rows) delete (row as { paged_total?: string }).paged_total;
  return { rows, total };
}
