import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { databaseUrl, withAdmin } from './postgres-template.js';

/**
 * A migrated database of its own for each test app: SQLite in memory, or, when the suite runs on
 * PostgreSQL, a fresh database cloned from the run's migrated template (test/postgres-template.ts)
 * and dropped on close. A clone takes PostgreSQL 0.05-0.2 s (it copies the template's files) where
 * a schema and every migration took 0.3-0.4 s, and no file's catalog queries see the others' tables.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres' || !url) {
    const database = openDatabase({ sqlitePath: ':memory:' });
    await migrateToLatest(database.db);
    return database;
  }
  const template = inject('pgTemplate');
  if (!template) throw new Error('no PostgreSQL template database: run the postgres project with test/postgres-template.ts as its globalSetup');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await withAdmin(url, (client) => client.query(`create database "${name}" template "${template}"`));
  const database = openDatabase({ url: databaseUrl(url, name), poolSize: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await dropClosedDatabase(url, name);
    },
  };
}

/**
 * `count` handles on one new, empty (unmigrated) database, as several instances of the server see
 * it: a SQLite file, or a PostgreSQL database of its own (dropped by `close`).
 */
export async function openSharedEmptyDatabase(count: number): Promise<{ handles: Database[]; close(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB !== 'postgres' || !url) {
    const dir = mkdtempSync(join(tmpdir(), 'pbx-shared-'));
    const handles = Array.from({ length: count }, () => openDatabase({ sqlitePath: join(dir, 'shared.sqlite') }));
    return {
      handles,
      async close() {
        for (const handle of handles) await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `${inject('pgTemplate')}_shared_${randomBytes(4).toString('hex')}`;
  await withAdmin(url, (client) => client.query(`create database "${name}"`));
  const handles = Array.from({ length: count }, () => openDatabase({ url: databaseUrl(url, name), poolSize: 4 }));
  return {
    handles,
    async close() {
      for (const handle of handles) await handle.close();
      await dropClosedDatabase(url, name);
    },
  };
}

/**
 * Drops a test database whose pools were just closed. Without FORCE: the pools' connections are
 * still saying goodbye (pg's `end()` resolves before their sockets close), and PostgreSQL waits
 * (up to 5 s) for them, where FORCE would kill them and the pool would raise an unhandled error.
 * Whatever is still connected after that is dropped with the template at the end of the run.
 */
async function dropClosedDatabase(url: string, name: string): Promise<void> {
  await withAdmin(url, (client) => client.query(`drop database if exists "${name}"`)).catch((error: { code?: string }) => {
    if (error.code !== '55006') throw error; // object_in_use
  });
}
