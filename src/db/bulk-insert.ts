import { CompiledQuery, sql, type Insertable, type Kysely } from 'kysely';
import type { DialectName } from './database.js';
import type { DB } from './schema.js';

type Scalar = string | number | null;
const isScalar = (value: unknown): value is Scalar => value === null || typeof value === 'string' || typeof value === 'number';

/** The columns of a batch when every row sets the same ones to scalars (what a JSON parameter carries); null otherwise. */
function uniformColumns(rows: readonly object[]): string[] | null {
  const columns = Object.keys(rows[0]).filter((key) => (rows[0] as Record<string, unknown>)[key] !== undefined);
  for (const row of rows) {
    const values = row as Record<string, unknown>;
    // The common case, checked without walking the row's keys: as many keys, each column a scalar.
    if (Object.keys(values).length === columns.length && columns.every((column) => values[column] !== undefined && isScalar(values[column]))) continue;
    let defined = 0;
    for (const key in values) {
      const value = values[key];
      if (value === undefined) continue;
      if (!isScalar(value)) return null;
      defined++;
    }
    if (defined !== columns.length || columns.some((column) => values[column] === undefined)) return null;
  }
  return columns;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A multi-row VALUES written as text: the same text for every batch of the same size and columns,
 * so SQLite's statement cache prepares it once, and the rows never pass through Kysely's builder
 * (which made an operation node of every value: a third of a 100,000-row contact import's time).
 */
function valuesInsert(table: string, columns: string[], rows: readonly object[]): CompiledQuery {
  const row = `(${columns.map(() => '?').join(', ')})`;
  const parameters: Scalar[] = [];
  for (const values of rows) for (const column of columns) parameters.push((values as Record<string, Scalar>)[column]);
  return CompiledQuery.raw(`insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${Array(rows.length).fill(row).join(', ')}`, parameters);
}

/**
 * Inserts many rows into one table, `batchSize` rows a statement. On PostgreSQL a batch travels as
 * one JSON parameter that `json_populate_recordset` turns into rows of the table's own type: a
 * multi-row VALUES of 1,500 rows of 11 columns is 16,500 parameters, and PostgreSQL spent about
 * 25 ms parsing and binding each such statement before writing a row. Rows whose columns differ,
 * or that hold other than strings, numbers and nulls, and every batch on SQLite (which reads
 * parameters cheaply) go as a multi-row VALUES: written straight as SQL text when the rows are
 * uniform scalars, through Kysely's builder otherwise.
 */
export async function insertRows<T extends keyof DB>(
  db: Kysely<DB>,
  dialect: DialectName,
  table: T,
  rows: ReadonlyArray<Insertable<DB[T]>>,
  batchSize: number,
): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    const columns = uniformColumns(batch);
    if (columns && dialect === 'sqlite') {
      await db.executeQuery(valuesInsert(table, columns, batch));
    } else if (columns) {
      const names = sql.join(columns.map((column) => sql.ref(column)));
      await sql`insert into ${sql.table(table)} (${names}) select ${names} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(batch)})`.execute(
        db,
      );
    } else {
      await db.insertInto(table).values(batch).execute();
    }
  }
}
