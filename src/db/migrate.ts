import { Migrator, PostgresAdapter, sql, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index.js';

// The migrator works on any schema, so it takes an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * On PostgreSQL the bookkeeping tables are pinned to the connection's current schema: Kysely
 * otherwise finds another schema's `kysely_migration` (several schemas share a database in tests
 * and benchmarks) and skips creating its own.
 */
async function migrator(db: AnyDb): Promise<Migrator> {
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  return new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
}

/** Applies every pending migration; throws with the failing migration's name on error. */
export async function migrateToLatest(db: AnyDb): Promise<string[]> {
  const result: MigrationResultSet = await (await migrator(db)).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String((result.error as Error).message ?? result.error)}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (used by /ready). */
export async function isFullyMigrated(db: AnyDb): Promise<boolean> {
  const applied = await (await migrator(db)).getMigrations();
  return applied.every((m) => m.executedAt !== undefined);
}
