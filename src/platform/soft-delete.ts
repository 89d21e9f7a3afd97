import type { Executor } from '../db/database.js';
import { markDeleted, markRestored, type SoftDeletable } from '../db/soft-delete.js';
import type { Clock } from './clock.js';
import { NotFound } from './errors.js';
import type { Tenant } from './tenancy.js';

/**
 * Soft delete and restore, one implementation for every soft-deletable resource: both are scoped
 * to the tenant, and both answer 404 when there is nothing in the right state to act on.
 */
export async function softDelete(
  db: Executor,
  clock: Clock,
  table: SoftDeletable,
  tenant: Tenant,
  id: string,
  notFound = 'Resource not found.',
): Promise<void> {
  if (!(await markDeleted(db, table, { pbxId: tenant.pbxId, id, now: clock.now() }))) throw new NotFound(notFound);
}

export async function restore(db: Executor, clock: Clock, table: SoftDeletable, tenant: Tenant, id: string, notFound = 'Resource not found.'): Promise<void> {
  if (!(await markRestored(db, table, { pbxId: tenant.pbxId, id, now: clock.now() }))) throw new NotFound(notFound);
}
