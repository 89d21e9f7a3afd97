import { Migrator, type MigrationResultSet } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/** Applies every pending migration; throws with the failing migration's name on error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const result: MigrationResultSet = await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String((result.error as Error).message ?? result.error)}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (used by /ready). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function isFullyMigrated(db: Kysely<any>): Promise<boolean> {
  const applied = await migrator(db).getMigrations();
  return applied.every((m) => m.executedAt !== undefined);
}
