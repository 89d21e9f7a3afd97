import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesSearch } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { TenantHolidayTable } from '../workforce.tables.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type TenantHolidayRow = Selectable<TenantHolidayTable>;

export interface HolidayFilters {
  search?: string;
  companyId?: string;
  recurring?: boolean;
  trashed?: TrashedFilter;
}

function holidaysOf(db: Executor, tenant: Tenant, filters: HolidayFilters) {
  let query = trashedScope(db.selectFrom('tenant_holidays').where('pbx_id', '=', tenant.pbxId), filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  const { companyId } = filters;
  if (companyId) query = query.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
  if (filters.recurring !== undefined) query = query.where('recurring', '=', filters.recurring ? 1 : 0);
  return query;
}

export function listHolidays(db: Kysely<DB>, tenant: Tenant, filters: HolidayFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => holidaysOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findHoliday(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<TenantHolidayRow | undefined> {
  return holidaysOf(db, tenant, { trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertHoliday(db: Executor, row: Insertable<TenantHolidayTable>): Promise<void> {
  await db.insertInto('tenant_holidays').values(row).execute();
}

export async function updateHoliday(db: Executor, tenant: Tenant, id: string, changes: Updateable<TenantHolidayTable>): Promise<void> {
  await db.updateTable('tenant_holidays').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
