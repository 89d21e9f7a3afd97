import { sql, type Expression, type SqlBool } from 'kysely';
import { likePattern } from '../http/list-query.js';

/**
 * Case-insensitive substring match over several columns, the same on SQLite and PostgreSQL; the
 * user's % and _ are matched literally.
 */
export function matchesSearch(columns: string[], search: string): Expression<SqlBool> {
  const pattern = likePattern(search.toLowerCase());
  const terms = columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(terms, sql` or `)})`;
}
