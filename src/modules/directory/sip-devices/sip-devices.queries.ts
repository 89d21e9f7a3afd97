import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { SipDeviceTable } from '../directory.tables.js';
import { pagedQuery } from '../../../db/paging.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope } from '../../../db/soft-delete.js';

export type SipDeviceRow = Selectable<SipDeviceTable>;

export interface SipDeviceFilters {
  search?: string;
  userId?: string;
  model?: string;
  trashed?: TrashedFilter;
}

/** What selects SIP devices: the tenant, and each filter that is set (`search` as a pattern). */
interface SipDeviceScope {
  pbxId: string;
  search?: string;
  userId?: string;
  model?: string;
  trashed?: TrashedFilter;
}

function devicesOf(db: Kysely<DB>, scope: SipDeviceScope) {
  let query = db.selectFrom('sip_devices').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name', 'username', 'mac_address'], scope.search));
  if (scope.userId) query = query.where('user_id', '=', scope.userId);
  if (scope.model) query = query.where('model', '=', scope.model);
  return query;
}

const sipDevicePage = pagedQuery({ scoped: devicesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listSipDevices(db: Kysely<DB>, tenant: Tenant, filters: SipDeviceFilters, sort: SortTerm[], page: PageRequest) {
  return sipDevicePage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findSipDevice(db: Kysely<DB>, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}) {
  return devicesOf(db, { pbxId: tenant.pbxId, trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

// A user list's `include=sipDevices`: compiled once per number of users.
const sipDevicesOfUserIds = valuesQuery((db, v: { pbxId: string; userIds: readonly string[] }) =>
  devicesOf(db, { pbxId: v.pbxId }).selectAll().where('user_id', 'in', v.userIds).orderBy('name'),
);

/** Live devices owned by the given users. */
export function sipDevicesOfUsers(db: Kysely<DB>, tenant: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return sipDevicesOfUserIds(db, { pbxId: tenant.pbxId, userIds });
}

// An extension list's `include=sipDevice`: compiled once per number of extensions.
const sipDevicesOfExtensionIds = valuesQuery((db, v: { pbxId: string; extensionIds: readonly string[] }) =>
  devicesOf(db, { pbxId: v.pbxId })
    .selectAll()
    .where((eb) => eb.or([eb('extension_id', 'in', v.extensionIds), eb('roaming_extension_id', 'in', v.extensionIds)]))
    .orderBy('created_at')
    .orderBy('id'),
);

/** Live devices an extension rings on: logged in there by roaming, or its home device. */
export function sipDevicesOfExtensions(db: Kysely<DB>, tenant: Tenant, extensionIds: string[]) {
  if (extensionIds.length === 0) return Promise.resolve([]);
  return sipDevicesOfExtensionIds(db, { pbxId: tenant.pbxId, extensionIds });
}

export async function insertSipDevice(db: Kysely<DB>, row: Insertable<SipDeviceTable>): Promise<void> {
  await db.insertInto('sip_devices').values(row).execute();
}

export async function updateSipDevice(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<SipDeviceTable>): Promise<void> {
  await db.updateTable('sip_devices').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
