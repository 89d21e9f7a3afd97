import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

/**
 * Vitest global setup of the `postgres` project: migrates one template database per run, which
 * each test file clones (`CREATE DATABASE ... TEMPLATE`, see test/database.ts) instead of
 * migrating a schema of its own. Databases are named `pbx_test_<start time>_<pid>[_<suffix>]` so
 * that the ones a killed run left behind can be recognised and dropped here.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database of this run (postgres project only). */
    pgTemplate: string;
  }
}

export const TEST_DATABASE_PREFIX = 'pbx_test_';
const STALE_AFTER_MS = 24 * 3600_000;

/** The same server address, another database. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Left by a run that no longer runs: its process is gone (server on this machine), or a day old. */
function isStale(name: string, url: string): boolean {
  const match = new RegExp(`^${TEST_DATABASE_PREFIX}([0-9a-z]+)_(\\d+)(_|$)`).exec(name);
  if (!match) return false;
  const startedAt = parseInt(match[1], 36);
  if (Date.now() - startedAt > STALE_AFTER_MS) return true;
  const host = new URL(url).hostname;
  const local = ['', 'localhost', '127.0.0.1', '[::1]'].includes(host);
  return local && !isAlive(Number(match[2]));
}

const dropDatabase = (client: pg.Client, name: string) => client.query(`drop database if exists "${name}" with (force)`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('the postgres project needs TEST_DATABASE_URL');
  const template = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${process.pid}`;
  await withAdmin(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like '${TEST_DATABASE_PREFIX}%'`);
    for (const { datname } of rows) if (isStale(datname, url)) await dropDatabase(client, datname);
    await client.query(`create database "${template}"`);
  });
  const database = openDatabase({ url: databaseUrl(url, template), poolSize: 1 });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  // Nobody may be connected to a template while it is cloned.
  await withAdmin(url, (client) => client.query(`alter database "${template}" with allow_connections false`));
  project.provide('pgTemplate', template);

  return async () => {
    await withAdmin(url, async (client) => {
      // The template, and any clone a test file did not close.
      const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname = $1 or datname like $2', [
        template,
        `${template}\\_%`,
      ]);
      for (const { datname } of rows) await dropDatabase(client, datname);
    });
  };
}
