import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Clock } from '../platform/clock.js';
import type { Tenant } from '../platform/tenancy.js';
import { NotFound } from '../platform/errors.js';
import { StringEnum } from './schema.js';

/** Tables whose rows carry `pbx_id` and `deleted_at`, so they can be trashed and restored. */
export type SoftDeletable = {
  [K in keyof DB]: DB[K] extends { pbx_id: unknown; deleted_at: unknown; id: unknown } ? K : never;
}[keyof DB];

/**
 * Soft delete and restore, one implementation for every soft-deletable resource: both are scoped
 * to the tenant, and both answer 404 when there is nothing in the right state to act on.
 */
export async function softDelete(
  db: Kysely<DB>,
  clock: Clock,
  table: SoftDeletable,
  tenant: Tenant,
  id: string,
  notFound = 'Resource not found.',
): Promise<void> {
  const now = clock.now().toISOString();
  const result =
    await sql`update ${sql.table(table)} set deleted_at = ${now}, updated_at = ${now} where id = ${id} and pbx_id = ${tenant.pbxId} and deleted_at is null`.execute(
      db,
    );
  if (Number(result.numAffectedRows ?? 0) === 0) throw new NotFound(notFound);
}

export async function restore(db: Kysely<DB>, clock: Clock, table: SoftDeletable, tenant: Tenant, id: string, notFound = 'Resource not found.'): Promise<void> {
  const now = clock.now().toISOString();
  const result =
    await sql`update ${sql.table(table)} set deleted_at = null, updated_at = ${now} where id = ${id} and pbx_id = ${tenant.pbxId} and deleted_at is not null`.execute(
      db,
    );
  if (Number(result.numAffectedRows ?? 0) === 0) throw new NotFound(notFound);
}

/** `filter[trashed]`: without (default), with, or only soft-deleted rows, as Laravel names it. */
export const TRASHED_FILTERS = ['without', 'with', 'only'] as const;
export type TrashedFilter = (typeof TRASHED_FILTERS)[number];

/** The `filter[trashed]` parameter of a list of `rows` (e.g. "contacts"), with who may use it where that is restricted. */
export const TrashedFilterParam = (rows: string, restriction?: string) =>
  StringEnum(TRASHED_FILTERS, { description: `Soft-deleted ${rows}: without (default), with, or only.${restriction ? ` ${restriction}` : ''}` });

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
