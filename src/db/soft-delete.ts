import { sql, type SelectQueryBuilder } from 'kysely';
import type { Executor } from './database.js';
import type { DB } from './schema.js';

/** Tables whose rows carry `pbx_id` and `deleted_at`, so they can be trashed and restored. */
export type SoftDeletable = {
  [K in keyof DB]: DB[K] extends { pbx_id: unknown; deleted_at: unknown; id: unknown } ? K : never;
}[keyof DB];

/** One row of a tenant's table, and when the change happens. */
export interface RowInTenant {
  pbxId: string;
  id: string;
  now: Date;
}

/** Trashes a live row of the tenant; false when there was none to trash. */
export async function markDeleted(db: Executor, table: SoftDeletable, row: RowInTenant): Promise<boolean> {
  const now = row.now.toISOString();
  const result =
    await sql`update ${sql.table(table)} set deleted_at = ${now}, updated_at = ${now} where id = ${row.id} and pbx_id = ${row.pbxId} and deleted_at is null`.execute(
      db,
    );
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Brings a trashed row of the tenant back; false when there was none in the trash. */
export async function markRestored(db: Executor, table: SoftDeletable, row: RowInTenant): Promise<boolean> {
  const now = row.now.toISOString();
  const result =
    await sql`update ${sql.table(table)} set deleted_at = null, updated_at = ${now} where id = ${row.id} and pbx_id = ${row.pbxId} and deleted_at is not null`.execute(
      db,
    );
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** `filter[trashed]`: without (default), with, or only soft-deleted rows, as Laravel names it. */
export const TRASHED_FILTERS = ['without', 'with', 'only'] as const;
export type TrashedFilter = (typeof TRASHED_FILTERS)[number];

/** Narrows a query to live rows (default), every row, or only the trashed ones. */
export function trashedScope<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  trashed: TrashedFilter = 'without',
  column = 'deleted_at',
): SelectQueryBuilder<DB, TB, O> {
  if (trashed === 'without') return query.where(sql.ref(column), 'is', null);
  if (trashed === 'only') return query.where(sql.ref(column), 'is not', null);
  return query;
}
