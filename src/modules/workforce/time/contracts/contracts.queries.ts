import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import { employeeExtIdOf, liveEmployeeNames } from '../../organisation/index.js';
import type { EmployeeContractTable } from '../time.tables.js';
import type { Executor } from '../../../../db/database.js';

export type ContractTableRow = Selectable<EmployeeContractTable>;
/** A contract with its employee's external id, as every answer shows it. */
export type ContractRow = ContractTableRow & { ext_id: string | null };

export interface ContractFilters {
  from?: CalendarDay;
  to?: CalendarDay;
  /** Active on `today`, or not. */
  active?: boolean;
  today: CalendarDay;
  trashed?: TrashedFilter;
}

/** Open-ended contracts sort as ending last. */
const END_SORT = sql<string>`coalesce(contract_end, '9999-12-31')`;
/** The contract's sort names: `from` is the start, `to` the end. */
const SORT_COLUMNS: Record<string, string> = { from: 'contract_start', to: 'end_sort' };

/** What selects an employee's contracts: the tenant, the employee, `today` for `active`, and each filter that is set. */
interface ContractScope {
  pbxId: string;
  employeeId: string;
  from?: CalendarDay;
  to?: CalendarDay;
  active?: boolean;
  today: CalendarDay;
  trashed?: TrashedFilter;
}

function contractsOf(db: Executor, scope: ContractScope) {
  let query = trashedScope(db.selectFrom('employee_contracts').where('pbx_id', '=', scope.pbxId).where('employee_id', '=', scope.employeeId), scope.trashed);
  const { today } = scope;
  if (scope.from) query = query.where('contract_start', '>=', scope.from);
  if (scope.to) query = query.where('contract_end', 'is not', null).where('contract_end', '<=', scope.to);
  if (scope.active === true)
    query = query.where('contract_start', '<=', today).where((eb) => eb.or([eb('contract_end', 'is', null), eb('contract_end', '>=', today)]));
  if (scope.active === false) query = query.where((eb) => eb.or([eb('contract_start', '>', today), eb('contract_end', '<', today)]));
  return query;
}

const contractPage = pagedQuery({ scoped: contractsOf, columns: (query) => query.selectAll().select(END_SORT.as('end_sort')), choices: ['trashed'] });

export function listContracts(db: Kysely<DB>, tenant: Tenant, employeeId: string, filters: ContractFilters, sort: SortTerm[], page: PageRequest) {
  const { from, to, active, today, trashed } = filters;
  return contractPage(
    db,
    { pbxId: tenant.pbxId, employeeId, from, to, active, today, trashed },
    sort.map((term) => ({ ...term, field: SORT_COLUMNS[term.field] ?? term.field })),
    page,
  );
}

/** An employee's live contracts active on `today`. */
export function activeContracts(db: Executor, tenant: Tenant, employeeId: string, today: CalendarDay): Promise<ContractTableRow[]> {
  return contractsOf(db, { pbxId: tenant.pbxId, employeeId, active: true, today }).selectAll().execute();
}

/**
 * The tenant's live contracts active on `today`, as a query another workforce sub-domain joins
 * (aliased) in its own statement (the home-office calendar): the table stays time's.
 */
export function contractsActiveOn(db: Executor, tenant: Tenant, today: CalendarDay) {
  return db
    .selectFrom('employee_contracts')
    .select([
      'employee_contracts.id',
      'employee_contracts.employee_id',
      'employee_contracts.company_id',
      'employee_contracts.department_id',
      'employee_contracts.main_company',
      'employee_contracts.contract_start',
      'employee_contracts.created_at',
    ])
    .where('employee_contracts.pbx_id', '=', tenant.pbxId)
    .where('employee_contracts.deleted_at', 'is', null)
    .where('employee_contracts.contract_start', '<=', today)
    .where((eb) => eb.or([eb('employee_contracts.contract_end', 'is', null), eb('employee_contracts.contract_end', '>=', today)]));
}

/** Every live contract of a live employee of the tenant active on `today` (schedule pools). */
export function tenantContractsActiveOn(db: Executor, tenant: Tenant, today: CalendarDay) {
  return db
    .selectFrom(contractsActiveOn(db, tenant, today).as('c'))
    .innerJoin(liveEmployeeNames(db, tenant).as('e'), 'e.id', 'c.employee_id')
    .select(['c.id', 'c.employee_id', 'c.company_id', 'c.department_id', 'c.contract_start', 'c.created_at'])
    .execute();
}

/**
 * The contract shown as main when no `filter[active]` is asked: the one active today; among
 * several, the stored main one, else the earliest started.
 */
export async function currentMainContractId(db: Kysely<DB>, tenant: Tenant, employeeId: string, today: CalendarDay): Promise<string | null> {
  const row = await contractsOf(db, { pbxId: tenant.pbxId, employeeId, active: true, today })
    .select('id')
    .orderBy('main_company', 'desc')
    .orderBy('contract_start')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findContract(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<ContractRow | undefined> {
  return trashedScope(
    db
      .selectFrom('employee_contracts')
      .selectAll('employee_contracts')
      .select(employeeExtIdOf('employee_contracts.employee_id'))
      .where('employee_contracts.id', '=', id)
      .where('employee_contracts.pbx_id', '=', tenant.pbxId),
    trashed,
    'employee_contracts.deleted_at',
  ).executeTakeFirst();
}

/** Live contracts of an employee that cover some day of `from`..`to`. */
export function contractsOverlapping(db: Executor, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay): Promise<ContractTableRow[]> {
  return db
    .selectFrom('employee_contracts')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('employee_id', '=', employeeId)
    .where('deleted_at', 'is', null)
    .where('contract_start', '<=', to)
    .where((eb) => eb.or([eb('contract_end', 'is', null), eb('contract_end', '>=', from)]))
    .orderBy('contract_start')
    .orderBy('id')
    .execute();
}

export async function insertContract(db: Executor, row: Insertable<EmployeeContractTable>): Promise<void> {
  await db.insertInto('employee_contracts').values(row).execute();
}

export async function updateContract(db: Executor, tenant: Tenant, id: string, changes: Updateable<EmployeeContractTable>): Promise<void> {
  await db.updateTable('employee_contracts').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** Clears the stored main flag on the employee's other live contracts. */
export async function clearOtherMain(db: Executor, tenant: Tenant, employeeId: string, keepId: string, now: string): Promise<void> {
  await db
    .updateTable('employee_contracts')
    .set({ main_company: 0, updated_at: now })
    .where('pbx_id', '=', tenant.pbxId)
    .where('employee_id', '=', employeeId)
    .where('id', '!=', keepId)
    .where('main_company', '=', 1)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function hasOtherLiveMain(db: Executor, tenant: Tenant, employeeId: string, exceptId: string): Promise<boolean> {
  const row = await db
    .selectFrom('employee_contracts')
    .select('id')
    .where('pbx_id', '=', tenant.pbxId)
    .where('employee_id', '=', employeeId)
    .where('id', '!=', exceptId)
    .where('main_company', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return !!row;
}

/** A balance the contract keeps: paid-leave days, home-office days, compensatory seconds. */
export type ContractBalance = 'leave_balance' | 'ho_balance' | 'compensatory_balance';

/**
 * Adds `delta` (negative: takes) to a tracked balance of the contract, relatively (`balance =
 * balance + delta`, so concurrent changes both count); false when it is untracked (null). The
 * absences' approvals, removals and recurring runs change the balances through it.
 */
export async function addToContractBalance(trx: Executor, tenant: Tenant, contractId: string, column: ContractBalance, delta: number): Promise<boolean> {
  const result = await trx
    .updateTable('employee_contracts')
    .set({ [column]: sql`${sql.ref(column)} + ${delta}` })
    .where('id', '=', contractId)
    .where('pbx_id', '=', tenant.pbxId)
    .where(column, 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
