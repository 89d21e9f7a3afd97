import type SqliteDatabase from 'better-sqlite3';

const STATEMENT_CACHE_SIZE = 500;

type Row = Record<string, unknown>;
type MakeRow = (values: unknown[]) => Row;

/**
 * One function per column list that turns a row's values into the row object: an object literal
 * of fixed shape. better-sqlite3 builds row objects property by property through V8's API, which
 * for a wide table (a user has 35 columns) cost half of a small query; values plus this are about
 * twice as fast. Computed keys define own properties, so even a column named `__proto__` stays a
 * column; the source holds nothing but JSON-quoted column names.
 */
function rowMaker(names: readonly string[]): MakeRow {
  const fields = names.map((name, i) => `[${JSON.stringify(name)}]: v[${i}]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from column names only, see above
  return new Function('v', `return { ${fields} };`) as MakeRow;
}

/** A prepared statement as Kysely's SQLite driver uses it; a reader returns its rows as values, made objects here. */
class CachedStatement {
  readonly reader: boolean;
  private width = -1;
  private makeRow: MakeRow = () => ({});

  constructor(private readonly statement: SqliteDatabase.Statement) {
    this.reader = statement.reader;
    if (this.reader) statement.raw(true);
  }

  /** Mid-iteration: a stream still reads from it. */
  get busy(): boolean {
    return this.statement.busy;
  }

  run(parameters: readonly unknown[]) {
    return this.statement.run(parameters);
  }

  all(parameters: readonly unknown[]): Row[] {
    const rows = this.statement.all(parameters) as unknown[][];
    if (rows.length > 0) this.shapeFor(rows[0]);
    const objects = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) objects[i] = this.makeRow(rows[i]);
    return objects;
  }

  *iterate(parameters: readonly unknown[]): IterableIterator<Row> {
    for (const values of this.statement.iterate(parameters) as IterableIterator<unknown[]>) {
      this.shapeFor(values);
      yield this.makeRow(values);
    }
  }

  /** The column list is read again when the width changes (a `select *` re-planned after a migration). */
  private shapeFor(values: unknown[]): void {
    if (values.length === this.width) return;
    this.width = values.length;
    this.makeRow = rowMaker(this.statement.columns().map((column) => column.name));
  }
}

/**
 * Kysely prepares every query anew, and preparing costs ten times more than running a small
 * query; the same SQL text (parameters are bound separately) reuses its prepared statement.
 * A statement still being iterated by a stream is never handed out twice.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = new CachedStatement(sqlite.prepare(sql));
      if (!cached) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}
