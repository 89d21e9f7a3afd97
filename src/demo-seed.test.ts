import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSharedEmptyDatabase, openTestDatabase } from '../test/database.js';
import { loadConfig } from './config.js';
import { openDatabase, SQLITE_DRIVER, type Database } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { seedDemo } from './demo-seed.js';
import { insertUser } from './modules/directory/index.js';
import { insertPbx } from './platform/tenancy.js';
import { commandContext } from './runtime.js';

const DATA_DIR = `/tmp/pbx-api-demo-seed-${process.pid}-${randomUUID().slice(0, 8)}`;
const config = loadConfig({ DATA_DIR, SECRET_KEY: randomBytes(32).toString('hex') });
const DEMO_PBXES = ['Acme Logistics S.à r.l.', 'Globex Handels GmbH'];

/** What the demo leaves in a database: its PBXes, users, the stored answer, and some rows the modules' seeders add. */
async function demoRows(database: Database) {
  const { db } = database;
  const count = async (table: 'users' | 'call_flows' | 'config_versions' | 'contacts' | 'jobs') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    pbxes: (await db.selectFrom('pbxes').select('name').orderBy('name').execute()).map((row) => row.name),
    seeded: (await db.selectFrom('settings').select('key').where('key', '=', 'demo_seed').execute()).length,
    users: await count('users'),
    callFlows: await count('call_flows'),
    versions: await count('config_versions'),
    contacts: await count('contacts'),
    jobs: await count('jobs'),
  };
}

describe('the demo seed is all or nothing', () => {
  const opened: Database[] = [];
  afterAll(async () => {
    for (const database of opened) await database.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  it('a seed that fails half way leaves nothing behind, and the next one seeds the whole demo', async () => {
    const database = await openTestDatabase();
    opened.push(database);
    const ctx = commandContext(config, database);
    // A user already holding the e-mail of the second demo tenant's first user: the seed gets through
    // the first tenant and fails in the second, as "UNIQUE constraint failed: users.email" did.
    const bystander = await insertPbx(database.db, ctx.clock, { name: 'Bystander', countryCode: 'LU' });
    const holder = await insertUser(database.db, ctx.clock, { pbx_id: bystander.id, email: 'jonas.becker@globex.example', password: 'bystander-2026' });
    const before = await demoRows(database);

    await expect(seedDemo(ctx)).rejects.toThrow(/unique|duplicate/i);
    expect(await demoRows(database)).toEqual(before);

    await database.db.updateTable('users').set({ email: 'someone.else@bystander.example' }).where('id', '=', holder.id).execute();
    const { seed, created } = await seedDemo(ctx);
    expect(created).toBe(true);
    expect(seed.tenants.map((tenant) => tenant.name)).toEqual(DEMO_PBXES);
    const after = await demoRows(database);
    expect(after.pbxes).toEqual([...DEMO_PBXES, 'Bystander'].sort());
    expect(after.seeded).toBe(1);
    expect(after.callFlows).toBeGreaterThan(0);
    expect(after.versions).toBeGreaterThan(0);
    // Seeding again answers the same seed.
    expect(await seedDemo(ctx)).toEqual({ seed, created: false });
  }, 60_000);

  it('two seeds at once: one seeds, the other waits and answers the same', async () => {
    const shared = await openSharedEmptyDatabase(2);
    try {
      await migrateToLatest(shared.handles[0].db);
      if (process.env.TEST_DB === 'postgres') await migrateToLatest(shared.handles[1].db);
      const answers = await Promise.all(shared.handles.map((handle) => seedDemo(commandContext(config, handle))));
      expect(answers.map((answer) => answer.created).sort()).toEqual([false, true]);
      expect(answers[0].seed).toEqual(answers[1].seed);
      const rows = await demoRows(shared.handles[0]);
      expect(rows.pbxes).toEqual(DEMO_PBXES);
      expect(rows.seeded).toBe(1);
    } finally {
      await shared.close();
    }
  }, 120_000);

  // SQLite: another process (the server starting) holds the write lock longer than the connection's
  // busy timeout (5 s); the seed waits for it rather than failing with "database is locked".
  it.skipIf(process.env.TEST_DB === 'postgres')(
    'waits for the write lock another process holds, then seeds',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pbx-seed-lock-'));
      const file = join(dir, 'pbx.sqlite');
      const database = openDatabase({ sqlitePath: file });
      try {
        await migrateToLatest(database.db);
        const holdMs = 6_000;
        const neighbour = spawn(
          process.execPath,
          [
            '-e',
            `const Database = require(process.argv[1]);
           const db = new Database(process.argv[2]);
           db.exec("begin immediate");
           db.prepare("insert into settings (key, value, updated_at) values ('neighbour', 'x', '2026-01-01T00:00:00.000Z')").run();
           process.stdout.write('locked\\n');
           setTimeout(() => { db.exec('commit'); db.close(); }, Number(process.argv[3]));`,
            createRequire(import.meta.url).resolve(SQLITE_DRIVER),
            file,
            String(holdMs),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        const exited = new Promise((resolve) => neighbour.on('exit', resolve));
        await new Promise<void>((resolve, reject) => {
          neighbour.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
          neighbour.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking`)));
        });
        const started = Date.now();
        const { created } = await seedDemo(commandContext(config, database));
        expect(created).toBe(true);
        expect(Date.now() - started).toBeGreaterThan(holdMs - 1_000);
        expect(await exited).toBe(0);
        const rows = await demoRows(database);
        expect(rows.pbxes).toEqual(DEMO_PBXES);
        expect(await database.db.selectFrom('settings').select('key').where('key', '=', 'neighbour').execute()).toHaveLength(1);
      } finally {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
