import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

interface Numbers {
  numbers: { n: number };
}

// The embedded database as the server opens it, whatever database the suite runs on: the plugin is SQLite's.
describe('LIMIT and OFFSET on SQLite', () => {
  let database: Database;
  let db: Kysely<Numbers>;
  beforeAll(async () => {
    database = openDatabase({ sqlitePath: ':memory:' });
    db = database.db as unknown as Kysely<Numbers>;
    await sql`create table numbers (n integer not null)`.execute(db);
    await db
      .insertInto('numbers')
      .values(Array.from({ length: 50 }, (_, i) => ({ n: i + 1 })))
      .execute();
  });
  afterAll(() => database.close());

  it('are written into the SQL as integers, so the prepared statement keeps its plan', () => {
    const compiled = db.selectFrom('numbers').select('n').where('n', '>', 3).orderBy('n').limit(15).offset(30).compile();
    expect(compiled.sql).toBe('select "n" from "numbers" where "n" > ? order by "n" limit 15 offset 30');
    expect(compiled.parameters).toEqual([3]);
  });

  it('stay parameters when they are not whole numbers (a reusable query placeholder, a negative value)', () => {
    const placeholder = db
      .selectFrom('numbers')
      .select('n')
      .limit('placeholder' as never)
      .compile();
    expect(placeholder.sql).toBe('select "n" from "numbers" limit ?');
    expect(placeholder.parameters).toEqual(['placeholder']);
    const negative = db.selectFrom('numbers').select('n').limit(-1).offset(2.5).compile();
    expect(negative.parameters).toEqual([-1, 2.5]);
  });

  it('select the same rows as before', async () => {
    const rows = await db.selectFrom('numbers').select('n').orderBy('n', 'desc').limit(3).offset(10).execute();
    expect(rows.map((row) => row.n)).toEqual([40, 39, 38]);
    const page = await db
      .selectFrom('numbers')
      .select('n')
      .where('n', 'in', db.selectFrom('numbers').select('n').orderBy('n').limit(5))
      .orderBy('n')
      .offset(0)
      .limit(2)
      .execute();
    expect(page.map((row) => row.n)).toEqual([1, 2]);
  });
});
