import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

interface Tables {
  people: { id: number; name: string; note: string | null };
}

// The embedded database as the server opens it, whatever database the suite runs on.
describe('SQLite rows made from cached statements', () => {
  let database: Database;
  let db: Kysely<Tables>;
  beforeAll(async () => {
    database = openDatabase({ sqlitePath: ':memory:' });
    db = database.db as unknown as Kysely<Tables>;
    await sql`create table people (id integer primary key, name text not null, note text)`.execute(db);
    await db
      .insertInto('people')
      .values([
        { id: 1, name: 'Anna', note: null },
        { id: 2, name: 'Ben', note: 'x' },
      ])
      .execute();
  });
  afterAll(() => database.close());

  it('are plain objects with every column, in order, again and again', async () => {
    for (let i = 0; i < 3; i++) {
      const rows = await db.selectFrom('people').selectAll().orderBy('id').execute();
      expect(rows).toEqual([
        { id: 1, name: 'Anna', note: null },
        { id: 2, name: 'Ben', note: 'x' },
      ]);
      expect(Object.keys(rows[0])).toEqual(['id', 'name', 'note']);
    }
    expect(await db.selectFrom('people').select('name').where('id', '=', 3).execute()).toEqual([]);
    const inserted = await db.insertInto('people').values({ id: 3, name: 'Cleo', note: null }).returning(['id', 'name']).execute();
    expect(inserted).toEqual([{ id: 3, name: 'Cleo' }]);
  });

  it('keep odd column names as columns (a `__proto__` alias) and the last of duplicate names', async () => {
    const { rows } = await sql<Record<string, unknown>>`select name as "__proto__", 1 as "a b", 2 as "a b", id as "quote""d" from people where id = 1`.execute(
      db,
    );
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(rows[0], '__proto__')).toBe(true);
    expect(rows[0]['__proto__']).toBe('Anna');
    expect(rows[0]['a b']).toBe(2);
    expect(rows[0]['quote"d']).toBe(1);
  });

  it('follow a table that gained a column after the statement was cached', async () => {
    const read = () => sql<Record<string, unknown>>`select * from people where id = 2`.execute(db);
    expect((await read()).rows[0]).toEqual({ id: 2, name: 'Ben', note: 'x' });
    await sql`alter table people add column city text default 'Esch'`.execute(db);
    expect((await read()).rows[0]).toEqual({ id: 2, name: 'Ben', note: 'x', city: 'Esch' });
  });

  it('stream as objects, and read the same way afterwards', async () => {
    const query = db.selectFrom('people').select(['id', 'name']).orderBy('id');
    const streamed: unknown[] = [];
    for await (const row of query.stream()) streamed.push(row);
    expect(await query.execute()).toEqual(streamed);
    expect(streamed).toEqual([
      { id: 1, name: 'Anna' },
      { id: 2, name: 'Ben' },
      { id: 3, name: 'Cleo' },
    ]);
  });
});
