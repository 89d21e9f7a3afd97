import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesSearch } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { SipDeviceTable } from '../directory.tables.js';
import { fetchPage } from '../../../db/paging.js';
import { trashedScope } from '../../../http/soft-delete.js';

export interface SipDeviceFilters {
  search?: string;
  userId?: string;
  model?: string;
  trashed?: TrashedFilter;
}

function devicesOf(db: Kysely<DB>, tenant: Tenant, filters: SipDeviceFilters) {
  let query = db.selectFrom('sip_devices').where('pbx_id', '=', tenant.pbxId);
  query = trashedScope(query, filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name', 'username', 'mac_address'], filters.search));
  if (filters.userId) query = query.where('user_id', '=', filters.userId);
  if (filters.model) query = query.where('model', '=', filters.model);
  return query;
}

export async function listSipDevices(db: Kysely<DB>, tenant: Tenant, filters: SipDeviceFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => devicesOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findSipDevice(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return devicesOf(db, tenant, { trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Live devices owned by the given users. */
export function sipDevicesOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return devicesOf(db, tenant, {}).selectAll().where('user_id', 'in', userIds).orderBy('name').execute();
}

/** Live devices an extension rings on: logged in there by roaming, or its home device. */
export function sipDevicesOfExtensions(db: Kysely<DB>, tenant: Tenant, extensionIds: string[]) {
  if (extensionIds.length === 0) return Promise.resolve([]);
  return devicesOf(db, tenant, {})
    .selectAll()
    .where((eb) => eb.or([eb('extension_id', 'in', extensionIds), eb('roaming_extension_id', 'in', extensionIds)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertSipDevice(db: Kysely<DB>, row: Insertable<SipDeviceTable>): Promise<void> {
  await db.insertInto('sip_devices').values(row).execute();
}

export async function updateSipDevice(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<SipDeviceTable>): Promise<void> {
  await db.updateTable('sip_devices').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
