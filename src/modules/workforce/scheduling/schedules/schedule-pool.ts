/**
 * Who a schedule may assign (its `employees`) and the departments it covers, for a batch of
 * schedules at once: the tenant's contracts active today are read once, whatever the number of
 * schedules. Only employees with a contract active today are assignable, whatever the scope:
 * company = a contract with a selected company, department = a contract in a selected
 * department, employees = the selected people. Each shows the department of their most recent
 * contract active today (latest start, then latest created).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { tenantContractsActiveOn } from '../../time/index.js';
import { departmentsByIds, fullName, nameSortColumns, type NameOrder, employeeNamesByIds } from '../../organisation/index.js';
import type { ScopeType } from '../scheduling.tables.js';
import type { CalendarDay } from '../../shared/index.js';
import type { AssignableEmployeeView } from './schedules.schemas.js';

export interface ScopeSelection {
  scopeType: ScopeType;
  targetIds: readonly string[];
}

export interface SchedulePool {
  employees: AssignableEmployeeView[];
  departments: Array<{ id: string; name: string | null }>;
}

type ActiveContract = Awaited<ReturnType<typeof tenantContractsActiveOn>>[number];

const mostRecentFirst = (a: ActiveContract, b: ActiveContract) =>
  b.contract_start.localeCompare(a.contract_start) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

function matches(contract: ActiveContract, selection: ScopeSelection, selected: Set<string>): boolean {
  if (selection.scopeType === 'company') return contract.company_id !== null && selected.has(contract.company_id);
  if (selection.scopeType === 'department') return contract.department_id !== null && selected.has(contract.department_id);
  return selected.has(contract.employee_id);
}

export async function resolvePools(
  db: Kysely<DB>,
  tenant: Tenant,
  today: CalendarDay,
  order: NameOrder,
  selections: readonly ScopeSelection[],
): Promise<SchedulePool[]> {
  if (selections.length === 0) return [];
  const contracts = await tenantContractsActiveOn(db, tenant, today);
  const latest = new Map<string, ActiveContract>();
  for (const contract of [...contracts].sort(mostRecentFirst)) if (!latest.has(contract.employee_id)) latest.set(contract.employee_id, contract);

  const memberIds = selections.map((selection) => {
    const selected = new Set(selection.targetIds);
    return new Set(contracts.filter((contract) => matches(contract, selection, selected)).map((contract) => contract.employee_id));
  });
  const everyone = [...new Set(memberIds.flatMap((ids) => [...ids]))];
  const people = await employeeNamesByIds(db, tenant, everyone);
  const [first, second] = nameSortColumns(order);
  people.sort((a, b) => a[first].localeCompare(b[first]) || a[second].localeCompare(b[second]) || a.id.localeCompare(b.id));
  const selectedDepartments = selections.flatMap((selection) => (selection.scopeType === 'department' ? selection.targetIds : []));
  const departments = await departmentsByIds(db, tenant, [
    ...new Set([...selectedDepartments, ...[...latest.values()].map((contract) => contract.department_id).filter((id): id is string => id !== null)]),
  ]);
  const departmentOf = (id: string | null) => (id === null ? null : (departments.get(id) ?? null));

  return selections.map((selection, index) => {
    const employees = people
      .filter((person) => memberIds[index].has(person.id))
      .map((person) => {
        const department = departmentOf(latest.get(person.id)?.department_id ?? null);
        return { id: person.id, fullName: fullName(person, order), departmentId: department?.id ?? null, departmentName: department?.name ?? null };
      });
    const covered =
      selection.scopeType === 'department'
        ? selection.targetIds.map((id) => ({ id, name: departmentOf(id)?.name ?? null }))
        : [
            ...new Map(
              employees.filter((e) => e.departmentId !== null).map((e) => [e.departmentId!, { id: e.departmentId!, name: e.departmentName }]),
            ).values(),
          ].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.id.localeCompare(b.id));
    return { employees, departments: covered };
  });
}
