import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { TenantHolidayTable } from '../time.tables.js';
import type { Executor } from '../../../../db/database.js';

export type TenantHolidayRow = Selectable<TenantHolidayTable>;

export interface HolidayFilters {
  search?: string;
  companyId?: string;
  recurring?: boolean;
  trashed?: TrashedFilter;
}

/** What selects holidays: the tenant, and each filter that is set (`search` as a pattern). */
interface HolidayScope {
  pbxId: string;
  search?: string;
  companyId?: string;
  recurring?: boolean;
  trashed?: TrashedFilter;
}

function holidaysOf(db: Executor, scope: HolidayScope) {
  let query = trashedScope(db.selectFrom('tenant_holidays').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  const { companyId } = scope;
  if (companyId) query = query.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
  if (scope.recurring !== undefined) query = query.where('recurring', '=', scope.recurring ? 1 : 0);
  return query;
}

const holidayPage = pagedQuery({ scoped: holidaysOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listHolidays(db: Kysely<DB>, tenant: Tenant, filters: HolidayFilters, sort: SortTerm[], page: PageRequest) {
  return holidayPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findHoliday(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<TenantHolidayRow | undefined> {
  return holidaysOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertHoliday(db: Executor, row: Insertable<TenantHolidayTable>): Promise<void> {
  await db.insertInto('tenant_holidays').values(row).execute();
}

export async function updateHoliday(db: Executor, tenant: Tenant, id: string, changes: Updateable<TenantHolidayTable>): Promise<void> {
  await db.updateTable('tenant_holidays').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
