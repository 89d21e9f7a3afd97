import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Case-insensitive substring match over several columns, the same on SQLite and PostgreSQL:
 * `pattern` is what `searchPattern` makes of the user's text (or a placeholder standing for it).
 */
export function matchesPattern(columns: string[], pattern: string): Expression<SqlBool> {
  const terms = columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(terms, sql` or `)})`;
}

/** The LIKE pattern of a free-text search (lower case, the user's % and _ taken literally); undefined when there is none. */
export function searchPattern(search: string | undefined): string | undefined {
  return search ? likePattern(search.toLowerCase()) : undefined;
}

/** `search` as a LIKE pattern with the wildcards a user typed taken literally. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
