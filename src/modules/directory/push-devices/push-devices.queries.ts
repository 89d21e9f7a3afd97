import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { PushDeviceTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';

export type PushDeviceRow = Selectable<PushDeviceTable>;

export interface DeviceFilters {
  type?: string;
  active?: boolean;
  search?: string;
}

/** What selects a user's push devices: the tenant, the owner, and each filter that is set (`search` as a pattern). */
interface DeviceScope {
  pbxId: string;
  userId: string;
  type?: string;
  active?: boolean;
  search?: string;
}

function devicesOf(db: Kysely<DB>, scope: DeviceScope) {
  let query = db.selectFrom('push_devices').where('pbx_id', '=', scope.pbxId).where('user_id', '=', scope.userId);
  if (scope.type) query = query.where('type', '=', scope.type);
  if (scope.active !== undefined) query = query.where('is_active', '=', scope.active ? 1 : 0);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  return query;
}

const devicePage = pagedQuery({ scoped: devicesOf, columns: (query) => query.selectAll() });

export function listDevices(db: Kysely<DB>, tenant: Tenant, userId: string, filters: DeviceFilters, sort: SortTerm[], page: PageRequest) {
  return devicePage(db, { pbxId: tenant.pbxId, userId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findDevice(db: Kysely<DB>, tenant: Tenant, userId: string, id: string) {
  return devicesOf(db, { pbxId: tenant.pbxId, userId }).selectAll().where('id', '=', id).executeTakeFirst();
}

export function findDeviceByToken(db: Kysely<DB>, token: string) {
  return db.selectFrom('push_devices').selectAll().where('token', '=', token).executeTakeFirst();
}

/**
 * A push token identifies one app installation: registering it again (possibly after another
 * user signed in on the same phone) moves it to the caller and reactivates it.
 */
export async function upsertDevice(db: Kysely<DB>, row: Insertable<PushDeviceTable> & { updated_at: string }): Promise<void> {
  await db
    .insertInto('push_devices')
    .values(row)
    .onConflict((oc) =>
      oc.column('token').doUpdateSet({
        pbx_id: row.pbx_id,
        user_id: row.user_id,
        twinning_id: row.twinning_id ?? null,
        name: row.name ?? null,
        type: row.type,
        is_active: 1,
        last_used_at: row.last_used_at ?? null,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function setDeviceActive(db: Kysely<DB>, tenant: Tenant, userId: string, id: string, active: boolean, now: string): Promise<void> {
  await db
    .updateTable('push_devices')
    .set({ is_active: active ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteDevice(db: Kysely<DB>, tenant: Tenant, userId: string, id: string): Promise<void> {
  await db.deleteFrom('push_devices').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId).execute();
}
