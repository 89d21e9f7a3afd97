import { sql, type SelectQueryBuilder } from 'kysely';

export interface SortTerm {
  field: string;
  direction: 'asc' | 'desc';
}

/** Which page of a list: 1-based page number, its size and the rows to skip. */
export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * One page of a filtered query and the total over the same filters (counted only when the page
 * is full or empty past the end, see below): rows sorted by the
 * allow-listed terms (validated by the list schema), then by `tieBreaker` so pages are stable.
 * `scoped` builds the filtered query anew for the rows and for the count. Nullable sort fields
 * listed in `nullsLast` put their nulls last in both directions, on both dialects.
 */
export async function fetchPage<DB, TB extends keyof DB, O>(
  scoped: () => SelectQueryBuilder<DB, TB, object>,
  columns: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  sort: SortTerm[],
  page: PageRequest,
  options: { qualify?: string; tieBreaker?: string; nullsLast?: readonly string[] } = {},
): Promise<{ rows: O[]; total: number }> {
  const column = (field: string) => sql.ref(options.qualify ? `${options.qualify}.${field}` : field);
  let query = columns(scoped());
  for (const term of sort) {
    // SQLite sorts nulls first and PostgreSQL last (ascending): for these fields, last on both, either way.
    if (options.nullsLast?.includes(term.field)) query = query.orderBy(sql`${column(term.field)} is null`);
    query = query.orderBy(column(term.field), term.direction);
  }
  const rows = await query
    .orderBy(column(options.tieBreaker ?? 'id'))
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  // A page that is not full is the last one: its rows tell the total, and most admin lists fit
  // one page, so they cost one query. A full page (or an empty one past the end) needs the count.
  if (rows.length > 0 && rows.length < page.perPage) return { rows, total: page.offset + rows.length };
  if (rows.length === 0 && page.offset === 0) return { rows, total: 0 };
  const count = await scoped()
    .select(sql<string | number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number((count as { total: string | number }).total) };
}
