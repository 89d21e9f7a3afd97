import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.js';
import { insertRows } from './bulk-insert.js';
import type { Database } from './database.js';
import { plannerStatisticsKeeper } from './planner-statistics.js';

const now = '2026-11-26T10:00:00.000Z';
const pbx = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `PBX ${i} "quoted" \\ back-slashed, ünïcödé`,
  rate_limit_per_minute: i % 3 === 0 ? null : i * 10,
  created_at: now,
  updated_at: now,
  ...extra,
});

describe('insertRows', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const stored = (ids: string[]) =>
    database.db.selectFrom('pbxes').select(['id', 'name', 'rate_limit_per_minute', 'plan', 'created_at']).where('id', 'in', ids).orderBy('id').execute();

  it('writes every row in batches, text, numbers and nulls as given, and the table’s defaults for columns left out', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => pbx(i + 1));
    await insertRows(database.db, database.dialect, 'pbxes', rows, 10);
    const read = await stored(rows.map((row) => row.id));
    expect(read).toHaveLength(25);
    for (const [i, row] of read.entries()) {
      expect(row).toMatchObject({ id: rows[i].id, name: rows[i].name, rate_limit_per_minute: rows[i].rate_limit_per_minute, plan: 'standard' });
    }
  });

  it('writes rows that set different columns as each sets them', async () => {
    const { rate_limit_per_minute: _left, ...without } = pbx(102);
    const rows = [pbx(101, { rate_limit_per_minute: 7 }), without, pbx(103, { rate_limit_per_minute: undefined })];
    await insertRows(database.db, database.dialect, 'pbxes', rows, 10);
    expect((await stored(rows.map((row) => row.id))).map((row) => row.rate_limit_per_minute)).toEqual([7, null, null]);
  });

  it('writes nothing for no rows', async () => {
    await expect(insertRows(database.db, database.dialect, 'pbxes', [], 10)).resolves.toBeUndefined();
  });
});

describe('plannerStatisticsKeeper', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('analyses the tables on PostgreSQL each time the rows written have doubled', async () => {
    const analysed = async () => {
      if (database.dialect !== 'postgres') return 0;
      const { rows } = await sql<{
        n: string;
      }>`select analyze_count as n from pg_stat_user_tables where relname = 'pbxes' and schemaname = current_schema()`.execute(database.db);
      return Number(rows[0]?.n ?? 0);
    };
    const keep = plannerStatisticsKeeper(database.db, database.dialect, ['pbxes'], 100);
    const before = await analysed();
    for (const written of [50, 100, 150, 199, 200, 399, 400]) await keep(written);
    // 100 (then waits for 200), 200 (then 400), 400: three ANALYZEs on PostgreSQL, none on SQLite.
    expect((await analysed()) - before).toBe(database.dialect === 'postgres' ? 3 : 0);
  });
});
