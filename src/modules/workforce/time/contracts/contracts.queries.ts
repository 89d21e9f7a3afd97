import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import { companyLocations, employeeExtIdOf, liveEmployeeNames } from '../../organisation/index.js';
import { tenantHolidaysWithin, type CalendarCompany, type TenantHolidayRow } from '../holidays/holiday-calendar.js';
import type { EmployeeContractTable } from '../time.tables.js';
import type { Executor } from '../../../../db/database.js';
import { reusableQuery } from '../../../../db/reusable-query.js';

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
const mainContractIdOn = reusableQuery((db, pbxId: string, employeeId: string, today: string) =>
  contractsOf(db, { pbxId, employeeId, active: true, today }).select('id').orderBy('main_company', 'desc').orderBy('contract_start').orderBy('id').limit(1),
);

export async function currentMainContractId(db: Kysely<DB>, tenant: Tenant, employeeId: string, today: CalendarDay): Promise<string | null> {
  const [row] = await mainContractIdOn(db, tenant.pbxId, employeeId, today);
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

/** The statement of `contractsOverlappingWithCompany`, compiled once per database (every work calendar reads it). */
const contractsWithCompany = reusableQuery((db, pbxId: string, employeeId: string, from: string, to: string) =>
  db
    .selectFrom('employee_contracts')
    .leftJoin(companyLocations(db, { pbxId }).as('co'), 'co.id', 'employee_contracts.company_id')
    .leftJoin(tenantHolidaysWithin(db, { pbxId }, from, to).as('h'), (join) =>
      join.on((eb) => eb.or([eb('h.company_id', 'is', null), eb('h.company_id', '=', eb.ref('employee_contracts.company_id'))])),
    )
    .selectAll('employee_contracts')
    .select([
      'co.id as company_location_id',
      'co.country_cc as company_country_cc',
      'co.region as company_region',
      'h.id as holiday_id',
      'h.company_id as holiday_company_id',
      'h.date as holiday_date',
      'h.name as holiday_name',
      'h.half_day as holiday_half_day',
      'h.recurring as holiday_recurring',
    ])
    .where('employee_contracts.pbx_id', '=', pbxId)
    .where('employee_contracts.employee_id', '=', employeeId)
    .where('employee_contracts.deleted_at', 'is', null)
    .where('employee_contracts.contract_start', '<=', to)
    .where((eb) => eb.or([eb('employee_contracts.contract_end', 'is', null), eb('employee_contracts.contract_end', '>=', from)]))
    .orderBy('employee_contracts.contract_start')
    .orderBy('employee_contracts.id'),
);

/**
 * `contractsOverlapping` with where each contract's company is (`companyLocations`: null for a
 * contract without one, or naming none of the tenant's) and the tenant's own holidays of `from`..`to`
 * that apply to it (its company's and those for every company), in one statement.
 */
export async function contractsOverlappingWithCompany(
  db: Executor,
  tenant: Tenant,
  employeeId: string,
  from: CalendarDay,
  to: CalendarDay,
): Promise<Array<{ contract: ContractTableRow; company: CalendarCompany | null; holidays: TenantHolidayRow[] }>> {
  const rows = await contractsWithCompany(db, tenant.pbxId, employeeId, from, to);
  const contracts: Array<{ contract: ContractTableRow; company: CalendarCompany | null; holidays: TenantHolidayRow[] }> = [];
  for (const row of rows) {
    const {
      company_location_id: companyId,
      company_country_cc: country,
      company_region: region,
      holiday_id: holidayId,
      holiday_company_id: holidayCompanyId,
      holiday_date: date,
      holiday_name: name,
      holiday_half_day: halfDay,
      holiday_recurring: recurring,
      ...contract
    } = row;
    let current = contracts.at(-1);
    if (current?.contract.id !== contract.id) {
      current = { contract, company: companyId === null ? null : { id: companyId, country_cc: country as string, region }, holidays: [] };
      contracts.push(current);
    }
    if (holidayId !== null)
      current.holidays.push({
        company_id: holidayCompanyId,
        date: date as CalendarDay,
        name: name as string,
        half_day: halfDay as number,
        recurring: recurring as number,
      });
  }
  return contracts;
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
