import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { TwinningTable } from '../directory.tables.js';
import { fetchPage } from '../../../db/paging.js';

/** Twinnings have no tenant column: the tenant is reached through the owning user. */
function tenantUsers(db: Kysely<DB>, tenant: Tenant) {
  return db.selectFrom('users').select('users.id').where('users.pbx_id', '=', tenant.pbxId);
}

export interface TwinningFilters {
  search?: string;
  status?: string;
  type?: string;
  syncSource?: string;
}

function twinningsOf(db: Kysely<DB>, tenant: Tenant, userIds: string[], filters: TwinningFilters = {}) {
  let query = db.selectFrom('twinnings').where('user_id', 'in', tenantUsers(db, tenant));
  if (userIds.length) query = query.where('user_id', 'in', userIds);
  if (filters.search) query = query.where(matchesSearch(['phone_number', 'backup_phone_number'], filters.search));
  if (filters.status) query = query.where('status', '=', filters.status as TwinningTable['status']);
  if (filters.type) query = query.where('type', '=', filters.type as TwinningTable['type']);
  if (filters.syncSource) query = query.where('sync_source', '=', filters.syncSource as TwinningTable['sync_source']);
  return query;
}

export async function listTwinnings(db: Kysely<DB>, tenant: Tenant, userId: string, filters: TwinningFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => twinningsOf(db, tenant, [userId], filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function twinningsOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return twinningsOf(db, tenant, userIds).selectAll().orderBy('created_at').orderBy('id').execute();
}

export function findTwinning(db: Kysely<DB>, tenant: Tenant, userId: string, id: string) {
  return twinningsOf(db, tenant, [userId]).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertTwinning(db: Kysely<DB>, row: Insertable<TwinningTable>): Promise<void> {
  await db.insertInto('twinnings').values(row).execute();
}

export async function updateTwinning(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<TwinningTable>): Promise<void> {
  await db.updateTable('twinnings').set(changes).where('id', '=', id).where('user_id', 'in', tenantUsers(db, tenant)).execute();
}

export async function deleteTwinning(db: Kysely<DB>, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('twinnings').where('id', '=', id).where('user_id', 'in', tenantUsers(db, tenant)).execute();
}
