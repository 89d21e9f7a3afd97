import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesSearch } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { DepartmentTable } from '../workforce.tables.js';

type Db = Kysely<DB> | Transaction<DB>;
export type DepartmentRow = Selectable<DepartmentTable>;

export interface DepartmentFilters {
  search?: string;
  companyId?: string;
  trashed?: TrashedFilter;
}

function departmentsOf(db: Db, tenant: Tenant, filters: DepartmentFilters) {
  let query = trashedScope(db.selectFrom('departments').where('pbx_id', '=', tenant.pbxId), filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  if (filters.companyId) query = query.where('company_id', '=', filters.companyId);
  return query;
}

export function listDepartments(db: Db, tenant: Tenant, filters: DepartmentFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => departmentsOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findDepartment(db: Db, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<DepartmentRow | undefined> {
  return departmentsOf(db, tenant, { trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Departments of the tenant by id, trashed ones included: what a contract's `department_id`
 * names, e.g. "the department on the most recent contract" of an assignable employee.
 */
export async function departmentsByIds(db: Db, tenant: Tenant, ids: readonly string[]): Promise<Map<string, DepartmentRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('departments')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertDepartment(db: Db, row: Insertable<DepartmentTable>): Promise<void> {
  await db.insertInto('departments').values(row).execute();
}

export async function updateDepartment(db: Db, tenant: Tenant, id: string, changes: Updateable<DepartmentTable>): Promise<void> {
  await db.updateTable('departments').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
