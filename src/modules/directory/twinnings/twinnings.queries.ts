import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { TwinningTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';

export type TwinningRow = Selectable<TwinningTable>;

/** Twinnings have no tenant column: the tenant is reached through the owning user. */
function tenantUsers(db: Kysely<DB>, pbxId: string) {
  return db.selectFrom('users').select('users.id').where('users.pbx_id', '=', pbxId);
}

export interface TwinningFilters {
  search?: string;
  status?: string;
  type?: string;
  syncSource?: string;
}

/** What selects twinnings: the tenant, the owners (all of the tenant's when empty), and each filter that is set (`search` as a pattern). */
interface TwinningScope {
  pbxId: string;
  userIds: readonly string[];
  search?: string;
  status?: string;
  type?: string;
  syncSource?: string;
}

function twinningsOf(db: Kysely<DB>, scope: TwinningScope) {
  let query = db.selectFrom('twinnings').where('user_id', 'in', tenantUsers(db, scope.pbxId));
  if (scope.userIds.length) query = query.where('user_id', 'in', scope.userIds);
  if (scope.search) query = query.where(matchesPattern(['phone_number', 'backup_phone_number'], scope.search));
  if (scope.status) query = query.where('status', '=', scope.status as TwinningTable['status']);
  if (scope.type) query = query.where('type', '=', scope.type as TwinningTable['type']);
  if (scope.syncSource) query = query.where('sync_source', '=', scope.syncSource as TwinningTable['sync_source']);
  return query;
}

const twinningPage = pagedQuery({ scoped: twinningsOf, columns: (query) => query.selectAll() });

export function listTwinnings(db: Kysely<DB>, tenant: Tenant, userId: string, filters: TwinningFilters, sort: SortTerm[], page: PageRequest) {
  return twinningPage(db, { pbxId: tenant.pbxId, userIds: [userId], ...filters, search: searchPattern(filters.search) }, sort, page);
}

// A user list's `include=twinnings`: compiled once per number of users.
const twinningsOfUserIds = valuesQuery((db, v: { pbxId: string; userIds: readonly string[] }) =>
  twinningsOf(db, v).selectAll().orderBy('created_at').orderBy('id'),
);

export function twinningsOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return twinningsOfUserIds(db, { pbxId: tenant.pbxId, userIds });
}

export function findTwinning(db: Kysely<DB>, tenant: Tenant, userId: string, id: string) {
  return twinningsOf(db, { pbxId: tenant.pbxId, userIds: [userId] })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertTwinning(db: Kysely<DB>, row: Insertable<TwinningTable>): Promise<void> {
  await db.insertInto('twinnings').values(row).execute();
}

export async function updateTwinning(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<TwinningTable>): Promise<void> {
  await db.updateTable('twinnings').set(changes).where('id', '=', id).where('user_id', 'in', tenantUsers(db, tenant.pbxId)).execute();
}

export async function deleteTwinning(db: Kysely<DB>, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('twinnings').where('id', '=', id).where('user_id', 'in', tenantUsers(db, tenant.pbxId)).execute();
}
