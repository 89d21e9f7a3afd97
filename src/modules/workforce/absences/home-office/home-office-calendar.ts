/**
 * The company's home-office calendar: who works from home when, for the team view. It shows the
 * home-office rows (pending, approved, pending_removal; removal rows left out, so a row being
 * taken back appears once, as pending_removal; balance adjustments too, they hold no day) of the
 * employees whose contract active today is with one of the caller's companies (those of the
 * caller's own contracts active today).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import { Forbidden, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { callerEmployee, findSettings, fullName, liveEmployeeNames } from '../../organisation/index.js';
import type { CalendarDay } from '../../shared/index.js';
import { activeContracts, contractsActiveOn } from '../../time/index.js';
import { workingDayDetails } from '../absence-requests/absence-amounts.js';
import { LIVE_STATUSES } from '../absence-requests/absence-requests.queries.js';
import { halfDayTimes, periodOf, requestedTimeOf } from '../absence-requests/absence-requests.presenter.js';
import type { HomeOfficeCalendarEntryView } from './home-office.schemas.js';

export interface CalendarFilters {
  departmentIds?: string[];
  from?: CalendarDay;
  to?: CalendarDay;
}

/** Companies of the employee's contracts active on `today`. */
async function activeCompanyIds(db: Kysely<DB>, tenant: Tenant, employeeId: string, today: CalendarDay): Promise<string[]> {
  const contracts = await activeContracts(db, tenant, employeeId, today);
  return [...new Set(contracts.flatMap((contract) => (contract.company_id ? [contract.company_id] : [])))];
}

function entriesOf(db: Kysely<DB>, tenant: Tenant, companyIds: string[], today: CalendarDay, filters: CalendarFilters) {
  // The names and the active contracts are the organisation's and time's queries, joined here.
  let query = db
    .selectFrom('absence_requests as r')
    .innerJoin(liveEmployeeNames(db, tenant).as('e'), 'e.id', 'r.employee_id')
    .innerJoin(contractsActiveOn(db, tenant, today).as('c'), (join) => join.onRef('c.employee_id', '=', 'r.employee_id').on('c.company_id', 'in', companyIds))
    .selectAll('r')
    .select(['e.first_name', 'e.last_name', 'c.department_id', 'c.main_company'])
    .where('r.pbx_id', '=', tenant.pbxId)
    .where('r.type', '=', 'home_office')
    .where('r.sub_type', 'is', null)
    .where('r.adjustment', 'is', null)
    .where('r.status', 'in', LIVE_STATUSES);
  // Home-office rows are single days (one per date asked), so the start alone bounds the index range.
  if (filters.from) query = query.where('r.start_day', '>=', filters.from).where('r.end_day', '>=', filters.from);
  if (filters.to) query = query.where('r.start_day', '<=', filters.to);
  if (filters.departmentIds?.length) query = query.where('c.department_id', 'in', filters.departmentIds);
  // With two active contracts in the caller's companies, the main one names the department.
  return query.orderBy('r.start_day').orderBy('r.employee_id').orderBy('r.id').orderBy('c.main_company', 'desc').orderBy('c.contract_start');
}

export async function homeOfficeCalendar(
  db: Kysely<DB>,
  tenant: Tenant,
  principal: Principal,
  today: CalendarDay,
  filters: CalendarFilters,
): Promise<HomeOfficeCalendarEntryView[]> {
  if (filters.from && filters.to && filters.to < filters.from)
    throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
  const caller = await callerEmployee(db, tenant, principal);
  if (!caller) throw new Forbidden('You have no employee record.');
  const companyIds = await activeCompanyIds(db, tenant, caller.id, today);
  if (companyIds.length === 0) throw new Forbidden('You have no active company: no contract of yours with a company is active today.');
  const [rows, settings] = await Promise.all([entriesOf(db, tenant, companyIds, today, filters).execute(), findSettings(db, tenant)]);
  const split = settings?.half_day_split ?? '12:00';
  const order = settings?.name_order ?? 'first_last';
  const entries: HomeOfficeCalendarEntryView[] = [];
  let previous: string | undefined;
  for (const row of rows) {
    if (row.id === previous) continue;
    previous = row.id;
    const period = periodOf(row);
    const times = halfDayTimes(row, split);
    const requested = requestedTimeOf(row);
    entries.push({
      id: row.id,
      employee_id: row.employee_id,
      employee_name: fullName(row, order) || null,
      department_id: row.department_id,
      type: 'home_office',
      sub_type: row.sub_type,
      status: row.status as HomeOfficeCalendarEntryView['status'],
      start: row.start_day,
      end: row.end_day,
      total_seconds: row.total_seconds,
      days: Object.keys(requested)
        .sort()
        .map((date) => ({ date, seconds: requested[date] })),
      working_days: row.working_days,
      workshift_seconds_per_day: row.workshift_seconds_per_day,
      is_half_day: period.startsHalfDay || period.endsHalfDay,
      starts_half_day: period.startsHalfDay,
      ends_half_day: period.endsHalfDay,
      start_time: times.startTime,
      end_time: times.endTime,
      working_day_details: workingDayDetails(requested, row.workshift_seconds_per_day, period, times),
    });
  }
  return entries;
}
