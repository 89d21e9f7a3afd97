import type { Insertable } from 'kysely';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ContactGroupTable } from '../address-book.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import type { Executor } from '../../../db/database.js';

/** What selects contact groups: the tenant, and a search pattern when searching. */
interface GroupScope {
  pbxId: string;
  search?: string;
}

function groups(db: Executor, scope: GroupScope) {
  let query = db.selectFrom('contact_groups').where('pbx_id', '=', scope.pbxId);
  if (scope.search) query = query.where(matchesPattern(['name', 'description'], scope.search));
  return query;
}

const groupPage = pagedQuery({ scoped: groups, columns: (query) => query.selectAll() });

export function listGroups(db: Executor, tenant: Tenant, search: string | undefined, sort: SortTerm[], page: PageRequest) {
  return groupPage(db, { pbxId: tenant.pbxId, search: searchPattern(search) }, sort, page);
}

export function findGroup(db: Executor, tenant: Tenant, id: string) {
  return groups(db, { pbxId: tenant.pbxId }).selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertGroup(db: Executor, row: Insertable<ContactGroupTable>) {
  return db.insertInto('contact_groups').values(row).execute();
}

export function updateGroup(db: Executor, tenant: Tenant, id: string, values: Partial<Insertable<ContactGroupTable>>) {
  return db.updateTable('contact_groups').set(values).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export function deleteGroup(db: Executor, tenant: Tenant, id: string) {
  return db.deleteFrom('contact_groups').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function replaceGroupUsers(db: Executor, groupId: string, userIds: string[]) {
  await db.deleteFrom('contact_group_users').where('group_id', '=', groupId).execute();
  if (userIds.length)
    await db
      .insertInto('contact_group_users')
      .values(userIds.map((user_id) => ({ group_id: groupId, user_id })))
      .execute();
}

export async function liveUserIds(db: Executor, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export function groupByName(db: Executor, tenant: Tenant, name: string) {
  return groups(db, { pbxId: tenant.pbxId }).select('id').where('name', '=', name).executeTakeFirst();
}
