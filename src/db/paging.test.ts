import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.js';
import type { Database } from './database.js';
import { pagedQuery, type PageRequest, type SortTerm } from './paging.js';
import type { DB } from './schema.js';
import { matchesPattern, searchPattern } from './search.js';

interface PbxScope {
  search?: string;
  plan?: string;
  ids?: readonly string[];
  named?: boolean;
}

function pbxesOf(db: Kysely<DB>, scope: PbxScope) {
  let query = db.selectFrom('pbxes');
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.plan) query = query.where('plan', '=', scope.plan);
  if (scope.ids) query = query.where('id', 'in', scope.ids);
  if (scope.named !== undefined) query = query.where('name', scope.named ? 'is not' : 'is', null);
  return query;
}

const pbxPage = pagedQuery({ scoped: pbxesOf, columns: (query) => query.select(['id', 'name', 'plan']) });
const byName: SortTerm[] = [{ field: 'name', direction: 'asc' }];
const pageOf = (page: number, perPage: number): PageRequest => ({ page, perPage, offset: (page - 1) * perPage });
const id = (i: number) => `00000000-0000-4000-8000-00000000000${i}`;

describe('pagedQuery', () => {
  let database: Database;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
    const now = new Date().toISOString();
    await db
      .insertInto('pbxes')
      .values(Array.from({ length: 7 }, (_, i) => ({ id: id(i), name: `PBX ${i}`, plan: i % 2 ? 'odd' : 'even', created_at: now, updated_at: now }) as never))
      .execute();
  });
  afterAll(() => database.close());

  it('tells the total from a page that is not full, and counts when the page is full or past the end', async () => {
    const page = (n: number, perPage: number) => pbxPage(db, {}, byName, pageOf(n, perPage));
    expect(await page(1, 10)).toMatchObject({ total: 7, rows: { length: 7 } });
    expect(await page(2, 5)).toMatchObject({ total: 7, rows: [{ name: 'PBX 5' }, { name: 'PBX 6' }] });
    expect(await page(1, 5)).toMatchObject({ total: 7, rows: { length: 5 } });
    expect(await page(1, 7)).toMatchObject({ total: 7, rows: { length: 7 } });
    expect(await page(3, 5)).toMatchObject({ total: 7, rows: [] });
  });

  it('is empty with a total of 0 over no rows', async () => {
    expect(await pbxPage(db, { plan: 'none' }, byName, pageOf(1, 15))).toEqual({ rows: [], total: 0 });
  });

  it('runs each call of a compiled shape with that call’s own values', async () => {
    const names = async (scope: PbxScope, sort = byName) => (await pbxPage(db, scope, sort, pageOf(1, 15))).rows.map((row) => row.name);
    expect(await names({ plan: 'odd' })).toEqual(['PBX 1', 'PBX 3', 'PBX 5']);
    expect(await names({ plan: 'even' })).toEqual(['PBX 0', 'PBX 2', 'PBX 4', 'PBX 6']);
    expect(await names({ plan: 'even', search: searchPattern('x 4') })).toEqual(['PBX 4']);
    expect(await names({ plan: 'odd', search: searchPattern('X 5') })).toEqual(['PBX 5']);
    expect(await names({ ids: [id(2), id(6)] })).toEqual(['PBX 2', 'PBX 6']);
    expect(await names({ ids: [id(3), id(1)] })).toEqual(['PBX 1', 'PBX 3']);
    expect(await names({ ids: [id(0), id(1), id(5)] }, [{ field: 'name', direction: 'desc' }])).toEqual(['PBX 5', 'PBX 1', 'PBX 0']);
    // Booleans pick the SQL: each value is its own shape.
    expect(await names({ named: true, plan: 'odd' })).toEqual(['PBX 1', 'PBX 3', 'PBX 5']);
    expect(await names({ named: false, plan: 'odd' })).toEqual([]);
  });

  it('takes an empty filter value as unset', async () => {
    expect((await pbxPage(db, { plan: '', search: '' }, byName, pageOf(1, 15))).total).toBe(7);
  });

  it('counts with the same filters as the page', async () => {
    expect(await pbxPage(db, { plan: 'even' }, byName, pageOf(1, 2))).toMatchObject({ total: 4, rows: [{ name: 'PBX 0' }, { name: 'PBX 2' }] });
    expect(await pbxPage(db, { plan: 'odd' }, byName, pageOf(1, 2))).toMatchObject({ total: 3, rows: [{ name: 'PBX 1' }, { name: 'PBX 3' }] });
  });

  it('finds, under the test runner, a builder that branches on a value its shape does not name', async () => {
    // `plan` picks the SQL here but is not declared a choice: the cached shape would serve the other plan.
    const careless = pagedQuery({
      scoped: (database: Kysely<DB>, scope: { plan?: string }) =>
        scope.plan === 'odd' ? database.selectFrom('pbxes').where('plan', '=', 'odd') : database.selectFrom('pbxes').where('plan', '!=', 'odd'),
      columns: (query) => query.select('name'),
    });
    await expect(careless(db, { plan: 'odd' }, byName, pageOf(1, 15))).rejects.toThrow(/valuesQuery: shape .* runs other SQL/);
  });

  it('finds a builder that transforms a value instead of taking it as given', async () => {
    const careless = pagedQuery({
      scoped: (database: Kysely<DB>, scope: { plan?: string }) => database.selectFrom('pbxes').where('plan', '=', `${scope.plan ?? ''}`.toUpperCase()),
      columns: (query) => query.select('name'),
    });
    await expect(careless(db, { plan: 'odd' }, byName, pageOf(1, 15))).rejects.toThrow(/valuesQuery: shape/);
  });
});
