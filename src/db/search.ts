import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Case-insensitive substring match over several columns, the same on SQLite and PostgreSQL; the
 * user's % and _ are matched literally.
 */
export function matchesSearch(columns: string[], search: string): Expression<SqlBool> {
  const pattern = likePattern(search.toLowerCase());
  const terms = columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(terms, sql` or `)})`;
}

/** `search` as a LIKE pattern with the wildcards a user typed taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
