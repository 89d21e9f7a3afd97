import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.js';
import type { Database } from './database.js';
import { fetchPage } from './paging.js';

describe('fetchPage', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
    const now = new Date().toISOString();
    await database.db
      .insertInto('pbxes')
      .values(
        Array.from({ length: 7 }, (_, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, name: `PBX ${i}`, created_at: now, updated_at: now }) as never),
      )
      .execute();
  });
  afterAll(() => database.close());

  const page = (n: number, perPage: number) =>
    fetchPage(
      () => database.db.selectFrom('pbxes'),
      (query) => query.select(['id', 'name']),
      [{ field: 'name', direction: 'asc' }],
      { page: n, perPage, offset: (n - 1) * perPage },
    );

  it('tells the total from a page that is not full, and counts when the page is full or past the end', async () => {
    expect(await page(1, 10)).toMatchObject({ total: 7, rows: { length: 7 } });
    expect(await page(2, 5)).toMatchObject({ total: 7, rows: [{ name: 'PBX 5' }, { name: 'PBX 6' }] });
    expect(await page(1, 5)).toMatchObject({ total: 7, rows: { length: 5 } });
    expect(await page(1, 7)).toMatchObject({ total: 7, rows: { length: 7 } });
    expect(await page(3, 5)).toMatchObject({ total: 7, rows: [] });
  });

  it('is empty with a total of 0 over no rows', async () => {
    const none = await fetchPage(
      () => database.db.selectFrom('pbxes').where('name', '=', 'nobody'),
      (query) => query.select(['id']),
      [],
      { page: 1, perPage: 15, offset: 0 },
    );
    expect(none).toEqual({ rows: [], total: 0 });
  });
});
