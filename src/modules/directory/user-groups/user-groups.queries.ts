import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { UserGroupTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import type { Executor } from '../../../db/database.js';

export type UserGroupRow = Selectable<UserGroupTable>;

export interface UserGroupFilters {
  search?: string;
  userId?: string;
}

/** What selects user groups: the tenant, and each filter that is set (`search` as a pattern). */
interface UserGroupScope {
  pbxId: string;
  search?: string;
  userId?: string;
}

function groupsOf(db: Executor, scope: UserGroupScope) {
  let query = db.selectFrom('user_groups').where('pbx_id', '=', scope.pbxId);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  return query;
}

const userGroupPage = pagedQuery({ scoped: groupsOf, columns: (query) => query.selectAll() });

export function listUserGroups(db: Kysely<DB>, tenant: Tenant, filters: UserGroupFilters, sort: SortTerm[], page: PageRequest) {
  return userGroupPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findUserGroup(db: Executor, tenant: Tenant, userId: string, id: string) {
  return groupsOf(db, { pbxId: tenant.pbxId, userId }).selectAll().where('id', '=', id).executeTakeFirst();
}

// A user list's `include=groups` (and an extension list's `include=user.groups`): compiled once per number of users.
const groupsOfOwnerIds = valuesQuery((db, v: { pbxId: string; userIds: readonly string[] }) =>
  groupsOf(db, { pbxId: v.pbxId }).selectAll().where('user_id', 'in', v.userIds).orderBy('position'),
);

export function groupsOwnedBy(db: Executor, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return groupsOfOwnerIds(db, { pbxId: tenant.pbxId, userIds });
}

export async function countGroups(db: Executor, tenant: Tenant, userId: string): Promise<number> {
  const row = await groupsOf(db, { pbxId: tenant.pbxId, userId })
    .select((eb) => eb.fn.countAll().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Shifts the positions in [from, to] (to null: up to the last) of one owner's groups by `delta`. */
export async function shiftPositions(db: Executor, tenant: Tenant, userId: string, from: number, to: number | null, delta: number): Promise<void> {
  if (to !== null && from > to) return;
  let query = db
    .updateTable('user_groups')
    .set((eb) => ({ position: eb('position', '+', delta) }))
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .where('position', '>=', from);
  if (to !== null) query = query.where('position', '<=', to);
  await query.execute();
}

export async function insertUserGroup(db: Executor, row: Insertable<UserGroupTable>): Promise<void> {
  await db.insertInto('user_groups').values(row).execute();
}

export async function updateUserGroup(db: Executor, tenant: Tenant, id: string, changes: Updateable<UserGroupTable>): Promise<void> {
  await db.updateTable('user_groups').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function deleteUserGroup(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('user_groups').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function membersOf(db: Executor, groupIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return map;
  const rows = await db
    .selectFrom('user_group_members')
    .select(['user_group_id', 'user_id'])
    .where('user_group_id', 'in', groupIds)
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();
  for (const row of rows) map.get(row.user_group_id)?.push(row.user_id);
  return map;
}

export async function replaceMembers(db: Executor, groupId: string, userIds: string[], now: string): Promise<void> {
  await db.deleteFrom('user_group_members').where('user_group_id', '=', groupId).execute();
  if (userIds.length)
    await db
      .insertInto('user_group_members')
      .values(userIds.map((userId) => ({ user_group_id: groupId, user_id: userId, created_at: now })))
      .execute();
}
