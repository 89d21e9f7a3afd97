import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { shapedQuery, type Placeholder } from './reusable-query.js';

describe('shapedQuery', () => {
  let database: Database;
  beforeAll(async () => {
    database = openDatabase({ sqlitePath: ':memory:' });
    await migrateToLatest(database.db);
    const now = new Date().toISOString();
    await database.db
      .insertInto('pbxes')
      .values(
        ['Alpha', 'Beta', 'Gamma'].map((name, i) => ({
          id: `pbx-${i}`,
          name,
          country_code: 'LU',
          timezone: 'Europe/Luxembourg',
          plan: 'standard',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  });
  afterAll(async () => database.close());

  const names = shapedQuery<{ name: string }>();
  const namesIn = (db: Database['db'], count: number) => (p: Placeholder) =>
    db
      .selectFrom('pbxes')
      .select('name')
      .where(
        'name',
        'in',
        Array.from({ length: count }, (_, i) => p<string>(`n${i}`)),
      )
      .orderBy('name');
  const byName = (db: Database['db'], wanted: string[]) =>
    names(db, `in=${wanted.length}`, Object.fromEntries(wanted.map((name, i) => [`n${i}`, name])), namesIn(db, wanted.length));

  it('runs each call with its own values, compiled once per shape', async () => {
    expect(await byName(database.db, ['Alpha'])).toEqual([{ name: 'Alpha' }]);
    expect(await byName(database.db, ['Beta'])).toEqual([{ name: 'Beta' }]);
    expect(await byName(database.db, ['Gamma', 'Alpha'])).toEqual([{ name: 'Alpha' }, { name: 'Gamma' }]);
  });

  it('refuses a builder that bakes a value into the shared SQL', async () => {
    const careless = shapedQuery<{ name: string }>();
    await expect(careless(database.db, 'one', {}, () => database.db.selectFrom('pbxes').select('name').where('name', '=', 'Alpha'))).rejects.toThrow(
      /literal parameter/,
    );
  });

  it('refuses a call that lacks a value its shape needs', async () => {
    await expect(names(database.db, 'in=1', {}, namesIn(database.db, 1))).rejects.toThrow(/no value for "n0"/);
  });

  it('finds, under the test runner, a shape that misses a choice of its query', async () => {
    const sloppy = shapedQuery<{ name: string }>();
    const first = ['Alpha'];
    const second = ['Alpha', 'Beta'];
    const values = (wanted: string[]) => Object.fromEntries(wanted.map((name, i) => [`n${i}`, name]));
    expect(await sloppy(database.db, 'names', values(first), namesIn(database.db, first.length))).toEqual([{ name: 'Alpha' }]);
    await expect(sloppy(database.db, 'names', values(second), namesIn(database.db, second.length))).rejects.toThrow(/names fewer choices/);
  });
});
