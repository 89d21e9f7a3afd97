import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from './schema.js';
import { valuesQueryCache, type QueryValues } from './values-query.js';

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

export interface PagedQuerySpec<V, TB extends keyof DB, O> {
  /**
   * The list's rows before sorting and paging, from the tenant and the filters in `v`. It is
   * compiled once per shape, so it takes every value from `v` (see `valuesQueryCache`); the same
   * function serves single-row look-ups with real values.
   */
  scoped: (db: Kysely<DB>, v: V) => SelectQueryBuilder<DB, TB, object>;
  columns: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>;
  /** Keys whose string value picks the SQL (an enum such as `trashed`) rather than filling a parameter. */
  choices?: readonly (keyof V & string)[];
  /** Table that sort fields belong to, when the query joins others. */
  qualify?: string;
  tieBreaker?: string;
  /** Nullable sort fields whose nulls come last in both directions, on both dialects. */
  nullsLast?: readonly string[];
}

/**
 * A list endpoint's query: one page of the filtered rows and the total over the same filters
 * (counted only when the page is full, or empty past the end). Rows are sorted by the
 * allow-listed terms (validated by the list schema), then by `tieBreaker` so pages are stable.
 * Its SQL is compiled once per shape (the filters set, the choices, the sort, the page) and
 * database, and then only bound: building and compiling a Kysely query anew cost as much as
 * SQLite running it.
 */
export function pagedQuery<V extends QueryValues<V>, TB extends keyof DB, O>(spec: PagedQuerySpec<V, TB, O>) {
  const pages = valuesQueryCache<V, O>(spec.choices);
  const counts = valuesQueryCache<V, { total: string | number }>(spec.choices);
  const column = (field: string) => sql.ref(spec.qualify ? `${spec.qualify}.${field}` : field);

  const pageOf = (db: Kysely<DB>, v: V, sort: SortTerm[], page: PageRequest) => {
    let query = spec.columns(spec.scoped(db, v));
    for (const term of sort) {
      // SQLite sorts nulls first and PostgreSQL last (ascending): for these fields, last on both, either way.
      if (spec.nullsLast?.includes(term.field)) query = query.orderBy(sql`${column(term.field)} is null`);
      query = query.orderBy(column(term.field), term.direction);
    }
    // Written into the SQL: SQLite plans a bound LIMIT or OFFSET anew at every execution (db/inline-row-limits.ts).
    query = query.orderBy(column(spec.tieBreaker ?? 'id')).limit(sql.lit(page.perPage));
    return page.offset > 0 ? query.offset(sql.lit(page.offset)) : query;
  };

  return async (db: Kysely<DB>, values: V, sort: SortTerm[], page: PageRequest): Promise<{ rows: O[]; total: number }> => {
    const sortKey = sort.map((term) => (term.direction === 'desc' ? `-${term.field}` : term.field)).join(',');
    const pageQuery = pages(db, values, `${sortKey}|${page.perPage}|${page.offset}`, (v) => pageOf(db, v, sort, page));
    const rows = (await db.executeQuery(pageQuery)).rows;
    // A page that is not full is the last one: its rows tell the total, and most admin lists fit
    // one page, so they cost one query. A full page (or an empty one past the end) needs the count.
    if (rows.length > 0 && rows.length < page.perPage) return { rows, total: page.offset + rows.length };
    if (rows.length === 0 && page.offset === 0) return { rows, total: 0 };
    const countQuery = counts(db, values, '', (v) => spec.scoped(db, v).select(sql<string | number>`count(*)`.as('total')));
    const [count] = (await db.executeQuery(countQuery)).rows;
    return { rows, total: Number(count?.total ?? 0) };
  };
}
