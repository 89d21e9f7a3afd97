import { sql, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { DB } from './schema.js';

/**
 * Keeps PostgreSQL's planner statistics of `tables` in step with a bulk write into them. Until
 * autovacuum's next ANALYZE (a minute or more away), the planner believes a table that grew from
 * a few rows to a hundred thousand during the write still holds a few, and picks plans that read
 * the whole tenant's rows for each look-up: a 100,000-row contact import matched every chunk's
 * numbers by scanning all numbers imported so far (45 ms a query, quadratic over the file). The
 * returned function is told how many rows the write has added so far and analyses the tables
 * each time that has doubled (from `first`): a handful of ANALYZEs, each a sample of the table.
 * SQLite plans from its indexes without statistics; there it does nothing.
 */
export function plannerStatisticsKeeper(db: Kysely<DB>, dialect: DialectName, tables: ReadonlyArray<keyof DB>, first = 1000) {
  let next = first;
  return async (rowsWritten: number): Promise<void> => {
    if (dialect !== 'postgres' || rowsWritten < next) return;
    next = rowsWritten * 2;
    await sql`analyze ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db);
  };
}
