import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ExtensionTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope } from '../../../db/soft-delete.js';

export type ExtensionRow = Selectable<ExtensionTable>;

export interface ExtensionFilters {
  search?: string;
  userId?: string;
  trashed?: TrashedFilter;
}

/** What selects extensions: the tenant, and each filter that is set (`search` as a pattern). */
interface ExtensionScope {
  pbxId: string;
  search?: string;
  userId?: string;
  trashed?: TrashedFilter;
}

function extensionsOf(db: Kysely<DB>, scope: ExtensionScope) {
  let query = db.selectFrom('extensions').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['number', 'name'], scope.search));
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  return query;
}

const extensionPage = pagedQuery({ scoped: extensionsOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listExtensions(db: Kysely<DB>, tenant: Tenant, filters: ExtensionFilters, sort: SortTerm[], page: PageRequest) {
  return extensionPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findExtension(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return extensionsOf(db, { pbxId: tenant.pbxId, trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findExtensionByNumber(db: Kysely<DB>, tenant: Tenant, number: string) {
  return extensionsOf(db, { pbxId: tenant.pbxId }).selectAll().where('number', '=', number).executeTakeFirst();
}

// A user list's `include=extensions`: compiled once per number of users.
const extensionsOfUserIds = valuesQuery((db, v: { pbxId: string; userIds: readonly string[] }) =>
  extensionsOf(db, { pbxId: v.pbxId }).selectAll().where('user_id', 'in', v.userIds).orderBy('number'),
);

export function extensionsOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return extensionsOfUserIds(db, { pbxId: tenant.pbxId, userIds });
}

export async function insertExtension(db: Kysely<DB>, row: Insertable<ExtensionTable>): Promise<void> {
  await db.insertInto('extensions').values(row).execute();
}

export async function updateExtension(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<ExtensionTable>): Promise<void> {
  await db.updateTable('extensions').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** The ids among `extensionIds` the user marked as favourites. */
export async function favoriteExtensionIds(db: Kysely<DB>, userId: string, extensionIds: string[]): Promise<Set<string>> {
  if (extensionIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('extension_favorites')
    .select('extension_id')
    .where('user_id', '=', userId)
    .where('extension_id', 'in', extensionIds)
    .execute();
  return new Set(rows.map((row) => row.extension_id));
}

export async function setFavorite(db: Kysely<DB>, userId: string, extensionId: string, favorite: boolean, now: string): Promise<void> {
  if (!favorite) {
    await db.deleteFrom('extension_favorites').where('user_id', '=', userId).where('extension_id', '=', extensionId).execute();
    return;
  }
  await db
    .insertInto('extension_favorites')
    .values({ user_id: userId, extension_id: extensionId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'extension_id']).doNothing())
    .execute();
}

/** Every extension of the tenant, deleted ones included (the routing graph tells a deleted target from a missing one). */
export function extensionsOfPbx(db: Kysely<DB>, tenant: Tenant) {
  return db.selectFrom('extensions').select(['id', 'name', 'number', 'user_id', 'deleted_at']).where('pbx_id', '=', tenant.pbxId).execute();
}

const extensionSummariesById = valuesQuery((db, v: { pbxId: string; ids: readonly string[] }) =>
  db.selectFrom('extensions').select(['id', 'number', 'name']).where('pbx_id', '=', v.pbxId).where('id', 'in', v.ids),
);

/** Summaries of the tenant's extensions by id, deleted ones included (a queue's members). */
export async function extensionSummaries(db: Kysely<DB>, tenant: Tenant, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { id: string; number: string; name: string }>();
  const rows = await extensionSummariesById(db, { pbxId: tenant.pbxId, ids });
  return new Map(rows.map((row) => [row.id, row]));
}

/** Of these ids, those naming a live extension of the tenant. */
export async function liveExtensionIds(db: Kysely<DB>, tenant: Tenant, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('extensions')
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}
