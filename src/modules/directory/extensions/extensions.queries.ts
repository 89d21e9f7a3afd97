import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ExtensionTable } from '../directory.tables.js';
import { fetchPage } from '../../../db/paging.js';
import { trashedScope } from '../../../http/soft-delete.js';

export interface ExtensionFilters {
  search?: string;
  userId?: string;
  trashed?: TrashedFilter;
}

function extensionsOf(db: Kysely<DB>, tenant: Tenant, filters: ExtensionFilters) {
  let query = db.selectFrom('extensions').where('pbx_id', '=', tenant.pbxId);
  query = trashedScope(query, filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['number', 'name'], filters.search));
  if (filters.userId) query = query.where('user_id', '=', filters.userId);
  return query;
}

export async function listExtensions(db: Kysely<DB>, tenant: Tenant, filters: ExtensionFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => extensionsOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findExtension(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return extensionsOf(db, tenant, { trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findExtensionByNumber(db: Kysely<DB>, tenant: Tenant, number: string) {
  return extensionsOf(db, tenant, {}).selectAll().where('number', '=', number).executeTakeFirst();
}

export function extensionsOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return extensionsOf(db, tenant, {}).selectAll().where('user_id', 'in', userIds).orderBy('number').execute();
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
