import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ForwardTable } from '../directory.tables.js';

export type ForwardRow = Selectable<ForwardTable>;

function forwardsOf(db: Executor, tenant: Tenant, userId: string) {
  return db.selectFrom('forwards').where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId);
}

export function listForwards(db: Executor, tenant: Tenant, userId: string, filters: { type?: string; enabled?: boolean }) {
  let query = forwardsOf(db, tenant, userId).selectAll();
  if (filters.type) query = query.where('type', '=', filters.type as ForwardTable['type']);
  if (filters.enabled !== undefined) query = query.where('enabled', '=', filters.enabled ? 1 : 0);
  return query.orderBy('created_at').orderBy('id').execute();
}

export function findForward(db: Executor, tenant: Tenant, userId: string, id: string) {
  return forwardsOf(db, tenant, userId).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertForward(db: Executor, row: Insertable<ForwardTable>): Promise<void> {
  await db.insertInto('forwards').values(row).execute();
}

export async function updateForward(db: Executor, tenant: Tenant, id: string, changes: Updateable<ForwardTable>): Promise<void> {
  await db.updateTable('forwards').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function deleteForward(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('forwards').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
