import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openSharedEmptyDatabase, openTestDatabase } from '../test/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadConfig } from './config.js';
import type { Database } from './db/database.js';
import { seedOnStart } from './server.js';
import { seedDemo, type DemoSeed } from './demo-seed.js';
import { commandContext } from './runtime.js';

const DATA_DIR = `/tmp/pbx-api-serve-seed-${process.pid}-${randomUUID().slice(0, 8)}`;
const SECRET_KEY = randomBytes(32).toString('hex');
const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY, DATA_DIR };

describe('demo data when the server starts', () => {
  const databases: Database[] = [];
  const database = async () => {
    const opened = await openTestDatabase();
    databases.push(opened);
    return opened;
  };
  afterAll(async () => {
    for (const opened of databases) await opened.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  /** What `serve` prints and whether it seeded, for a configuration and a database. */
  const start = async (env: NodeJS.ProcessEnv, db: Database) => {
    let printed = '';
    await seedOnStart(loadConfig(env), db, (text) => (printed += text));
    const tenants = await db.db.selectFrom('pbxes').select('id').execute();
    return { printed, tenants: tenants.length };
  };
  const passwordsOf = (seed: DemoSeed) =>
    seed.tenants.flatMap((tenant) => [tenant.admin.password, ...tenant.users.map((user) => user.password), tenant.disabled_user.password]);

  it('production seeds nothing unless SEED_DEMO=true, and never prints a password', async () => {
    expect(loadConfig(PRODUCTION).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR }).seedDemo).toBe(true);
    expect(() => loadConfig({ ...PRODUCTION, SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO/);

    const empty = await database();
    expect(await start(PRODUCTION, empty)).toEqual({ printed: '', tenants: 0 });

    const seeded = await database();
    const told = await start({ ...PRODUCTION, SEED_DEMO: 'true' }, seeded);
    expect(told.tenants).toBe(2);
    expect(told.printed).toContain('npx pbx-api seed --demo --json');
    const { seed } = await seedDemo(commandContext(loadConfig({ ...PRODUCTION, SEED_DEMO: 'true' }), seeded));
    for (const password of passwordsOf(seed)) expect(told.printed).not.toContain(password);
    // Started again in production, the seeded database shows no logins either.
    expect((await start({ ...PRODUCTION, SEED_DEMO: 'true' }, seeded)).printed).not.toContain(seed.tenants[0].admin.password);

    // The quick start (development, SEED_DEMO unset) still prints the demo logins.
    const development = await start({ DATA_DIR, SECRET_KEY }, seeded);
    expect(development.printed).toContain(`${seed.tenants[0].admin.email} / ${seed.tenants[0].admin.password}`);
  });
});

describe('several instances starting together on one empty database', () => {
  // PostgreSQL: each migrates (Kysely's advisory lock) and seeds (the demo-seed lease) at once.
  // SQLite serves one instance, so there the database is migrated first and only the seeding races.
  it('migrates once and seeds the demo data once; every instance prints the same logins', async () => {
    const shared = await openSharedEmptyDatabase(4);
    try {
      const env = { DATA_DIR, SECRET_KEY, SEED_DEMO: 'true' };
      if (process.env.TEST_DB !== 'postgres') await migrateToLatest(shared.handles[0].db);
      const printed = await Promise.all(
        shared.handles.map(async (handle) => {
          await migrateToLatest(handle.db);
          let text = '';
          await seedOnStart(loadConfig(env), handle, (line) => (text += line));
          return text;
        }),
      );
      const db = shared.handles[0].db;
      expect((await db.selectFrom('pbxes').select('name').execute()).map((p) => p.name).sort()).toEqual(['Acme Logistics S.à r.l.', 'Globex Handels GmbH']);
      expect(printed.filter((text) => text.startsWith('Demo data seeded'))).toHaveLength(1);
      const logins = printed.map((text) => text.split('\n').filter((line) => line.includes(' / ')));
      for (const lines of logins) expect(lines).toEqual(logins[0]);
      expect(await db.selectFrom('leases').selectAll().where('name', '=', 'demo-seed').execute()).toEqual([]);
    } finally {
      await shared.close();
    }
  }, 120_000);
});
