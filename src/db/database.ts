import SqliteDatabase from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DB } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...` selects PostgreSQL; anything else is ignored in favour of `sqlitePath`. */
  url?: string | null;
  sqlitePath?: string;
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  poolSize?: number;
}

export function isPostgresUrl(url: string | null | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

export function openDatabase(options: DatabaseOptions): Database {
  if (isPostgresUrl(options.url)) return openPostgres(options.url, options);
  return openSqlite(options.sqlitePath ?? ':memory:');
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  if (options.schema && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
