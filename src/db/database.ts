import type SqliteDatabase from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type pgModule from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DB } from './schema.js';
import { InlineRowLimits } from './inline-row-limits.js';
import { withStatementCache } from './statement-cache.js';

export type DialectName = 'sqlite' | 'postgres';

/** What a query runs on: the database or a transaction of it (`Transaction<DB>` extends `Kysely<DB>`). */
export type Executor = Kysely<DB>;

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL: a new connection outside the pool, with the pool's settings, for a LISTEN held for good (live events). */
  listenClient?: () => pgModule.Client;
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
  const sqlite = new (loadSqlite())(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), plugins: [new InlineRowLimits()] });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * better-sqlite3 13 (Node-API, binaries inside the package) on Node 22 and later: 12.x aborts the
 * process on Node 24.19+ when a statement is garbage-collected (its ObjectWrap destructor trips
 * `RemoveEnvironmentCleanupHook`'s check, WiseLibs/better-sqlite3#1515). 13 crashes on Node 20,
 * which keeps 12.x, installed under the alias better-sqlite3-node20 as an optional dependency.
 * Both have the same API.
 */
export const SQLITE_DRIVER = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
const loadSqlite = () => createRequire(import.meta.url)(SQLITE_DRIVER) as typeof SqliteDatabase;

/** pg is loaded only when a PostgreSQL URL is configured: it is about 70 ms of every embedded start otherwise. */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof pgModule;

function openPostgres(url: string, options: DatabaseOptions): Database {
  const pg = loadPg();
  if (options.schema && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
  const settings = { connectionString: url, options: options.schema ? `-c search_path=${options.schema}` : undefined };
  const pool = new pg.Pool({ ...settings, max: options.poolSize ?? 10 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', listenClient: () => new pg.Client({ ...settings, keepAlive: true }), close: () => db.destroy() };
}
