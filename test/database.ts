import { randomBytes } from 'node:crypto';
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
      // Without FORCE: the pool's connections are still saying goodbye, and PostgreSQL waits (up
      // to 5 s) for them, where FORCE would kill them and the pool would raise an unhandled error.
      // Whatever is still connected after that is dropped with the template at the end of the run.
      await withAdmin(url, (client) => client.query(`drop database if exists "${name}"`)).catch((error: { code?: string }) => {
        if (error.code !== '55006') throw error; // object_in_use
      });
    },
  };
}
