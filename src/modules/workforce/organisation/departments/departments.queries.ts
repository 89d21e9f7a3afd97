import type { Insertable, Selectable, Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { DepartmentTable } from '../organisation.tables.js';
import type { Executor } from '../../../../db/database.js';

export type DepartmentRow = Selectable<DepartmentTable>;

export interface DepartmentFilters {
  search?: string;
  companyId?: string;
  trashed?: TrashedFilter;
}

/** What selects departments: the tenant, and each filter that is set (`search` as a pattern). */
interface DepartmentScope {
  pbxId: string;
  search?: string;
  companyId?: string;
  trashed?: TrashedFilter;
}

function departmentsOf(db: Executor, scope: DepartmentScope) {
  let query = trashedScope(db.selectFrom('departments').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.companyId) query = query.where('company_id', '=', scope.companyId);
  return query;
}

const departmentPage = pagedQuery({ scoped: departmentsOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listDepartments(db: Executor, tenant: Tenant, filters: DepartmentFilters, sort: SortTerm[], page: PageRequest) {
  return departmentPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findDepartment(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<DepartmentRow | undefined> {
  return departmentsOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Departments of the tenant by id, trashed ones included: what a contract's `department_id`
 * names, e.g. "the department on the most recent contract" of an assignable employee.
 */
export async function departmentsByIds(db: Executor, tenant: Tenant, ids: readonly string[]): Promise<Map<string, DepartmentRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('departments')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertDepartment(db: Executor, row: Insertable<DepartmentTable>): Promise<void> {
  await db.insertInto('departments').values(row).execute();
}

export async function updateDepartment(db: Executor, tenant: Tenant, id: string, changes: Updateable<DepartmentTable>): Promise<void> {
  await db.updateTable('departments').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/**
 * The validators of each department, live employees only, in position order: one query for a
 * page of departments. A department without any is missing from the map.
 */
export async function validatorIdsByDepartment(db: Executor, tenant: Tenant, departmentIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (departmentIds.length === 0) return map;
  const rows = await db
    .selectFrom('department_validators')
    .innerJoin('employees', 'employees.id', 'department_validators.employee_id')
    .select(['department_validators.department_id', 'department_validators.employee_id'])
    .where('department_validators.pbx_id', '=', tenant.pbxId)
    .where('department_validators.department_id', 'in', [...new Set(departmentIds)])
    .where('employees.pbx_id', '=', tenant.pbxId)
    .where('employees.deleted_at', 'is', null)
    .orderBy('department_validators.position')
    .execute();
  for (const row of rows) {
    const ids = map.get(row.department_id);
    if (ids) ids.push(row.employee_id);
    else map.set(row.department_id, [row.employee_id]);
  }
  return map;
}

/**
 * Who decides the requests of a department's employees, in order: its validators that are live
 * employees of the tenant ([] for none, then any administrator decides). The absence requests
 * snapshot this when a request is created.
 */
export async function departmentValidatorIds(db: Executor, tenant: Tenant, departmentId: string): Promise<string[]> {
  return (await validatorIdsByDepartment(db, tenant, [departmentId])).get(departmentId) ?? [];
}

/** Replaces a department's validators with `employeeIds`, each at its index as position. */
export async function replaceDepartmentValidators(db: Executor, tenant: Tenant, departmentId: string, employeeIds: readonly string[]): Promise<void> {
  await db.deleteFrom('department_validators').where('department_id', '=', departmentId).where('pbx_id', '=', tenant.pbxId).execute();
  if (employeeIds.length === 0) return;
  await db
    .insertInto('department_validators')
    .values(employeeIds.map((employeeId, position) => ({ department_id: departmentId, employee_id: employeeId, pbx_id: tenant.pbxId, position })))
    .execute();
}
