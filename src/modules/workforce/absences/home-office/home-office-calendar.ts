/**
 * The company's home-office calendar: who works from home when, for the team view. It shows the
 * home-office rows (pending, approved, pending_removal; removal rows left out, so a row being
 * taken back appears once, as pending_removal; balance adjustments too, they hold no day) of the
 * employees whose contract active today is with one of the caller's companies (those of the
 * caller's own contracts active today).
 *
 * A company's month is some 12,000 entries and 7 MB, so the answer is written here as JSON text,
 * entry by entry from the query's rows (calendarEntryJson), instead of building an object per
 * entry for the route's serializer to walk again: the same text fast-json-stringify writes from
 * the HomeOfficeCalendarEntry schema (its properties in order, nulls as null), checked against it
 * in home-office.test.ts. Three statements: the settings (the tenant's today, the split and the name
 * order), the caller's companies, then the entries.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { Clock } from '../../../../platform/clock.js';
import { Forbidden, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { findSettings, fullName, linkedEmployeeId, liveEmployeeNames, type NameOrder } from '../../organisation/index.js';
import { todayIn, type CalendarDay } from '../../shared/index.js';
import { contractsActiveOn } from '../../time/index.js';
import { HALF_DAY_TOLERANCE_SECONDS } from '../absence-requests/absence-amounts.js';
import { LIVE_STATUSES } from '../absence-requests/absence-requests.queries.js';
import { halfDayTimes, requestedTimeOf } from '../absence-requests/absence-requests.presenter.js';

export interface CalendarFilters {
  departmentIds?: string[];
  from?: CalendarDay;
  to?: CalendarDay;
}

/** The caller's live employee record and the companies of its contracts active on `today` (one statement). */
async function callerCompanies(db: Kysely<DB>, tenant: Tenant, userId: string, today: CalendarDay): Promise<{ employee: boolean; companyIds: string[] }> {
  const rows = await db
    .selectFrom(linkedEmployeeId(db, tenant, userId).as('me'))
    .leftJoin(contractsActiveOn(db, tenant, today).as('c'), 'c.employee_id', 'me.id')
    .select('c.company_id')
    .execute();
  return { employee: rows.length > 0, companyIds: [...new Set(rows.flatMap((row) => (row.company_id ? [row.company_id] : [])))] };
}

function entriesOf(db: Kysely<DB>, tenant: Tenant, companyIds: string[], today: CalendarDay, filters: CalendarFilters) {
  // The names and the active contracts are the organisation's and time's queries, joined here.
  let query = db
    .selectFrom('absence_requests as r')
    .innerJoin(liveEmployeeNames(db, tenant).as('e'), 'e.id', 'r.employee_id')
    .innerJoin(contractsActiveOn(db, tenant, today).as('c'), (join) => join.onRef('c.employee_id', '=', 'r.employee_id').on('c.company_id', 'in', companyIds))
    // What an entry shows, and nothing else: a month is thousands of rows.
    .select([
      'r.id',
      'r.employee_id',
      'r.sub_type',
      'r.status',
      'r.start_day',
      'r.end_day',
      'r.total_seconds',
      'r.requested_time',
      'r.working_days',
      'r.workshift_seconds_per_day',
      'r.starts_half_day',
      'r.ends_half_day',
      'r.half_day_part',
      'r.start_time',
      'r.end_time',
      'e.first_name',
      'e.last_name',
      'c.department_id',
    ])
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

type EntryRow = Awaited<ReturnType<ReturnType<typeof entriesOf>['execute']>>[number];

// The JSON of each schema type as fast-json-stringify writes it: strings as JSON.stringify does,
// integers truncated (a whole number as is), numbers as JavaScript prints them (a non-finite one as null).
const text = (value: string) => JSON.stringify(value);
const nullableText = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
function integer(value: number): string {
  if (Number.isInteger(value)) return `${value}`;
  const truncated = Math.trunc(value);
  if (!Number.isFinite(truncated)) throw new Error(`The value "${value}" cannot be converted to an integer.`);
  return `${truncated}`;
}
function number(value: number): string {
  if (Number.isNaN(value)) throw new Error(`The value "${value}" cannot be converted to a number.`);
  return Number.isFinite(value) ? `${value}` : 'null';
}

/**
 * One HomeOfficeCalendarEntry as JSON text, its properties in the schema's order: `days` is the
 * row's per-day map in date order, `working_day_details` the same days with their half-day flags
 * and hours (absence-amounts.ts `workingDayDetails`).
 */
export function calendarEntryJson(row: EntryRow, split: string, order: NameOrder): string {
  const requested = requestedTimeOf(row);
  const startsHalfDay = row.starts_half_day === 1;
  const endsHalfDay = row.ends_half_day === 1;
  const times = halfDayTimes(row, split);
  const shift = row.workshift_seconds_per_day;
  let days = '';
  let details = '';
  for (const date of Object.keys(requested).sort()) {
    const seconds = integer(requested[date]);
    const isHalfDay = shift > 0 && requested[date] < shift - HALF_DAY_TOLERANCE_SECONDS;
    const startTime = date === row.start_day && startsHalfDay ? times.startTime : null;
    const endTime = date === row.end_day && endsHalfDay ? times.endTime : null;
    const separator = days === '' ? '' : ',';
    days += `${separator}{"date":${text(date)},"seconds":${seconds}}`;
    details += `${separator}{"date":${text(date)},"seconds":${seconds},"is_half_day":${isHalfDay},"start_time":${nullableText(startTime)},"end_time":${nullableText(endTime)}}`;
  }
  return (
    `{"id":${text(row.id)},"employee_id":${text(row.employee_id)},"employee_name":${nullableText(fullName(row, order) || null)},` +
    `"department_id":${nullableText(row.department_id)},"type":"home_office","sub_type":${nullableText(row.sub_type)},"status":${text(row.status)},` +
    `"start":${text(row.start_day)},"end":${text(row.end_day)},"total_seconds":${integer(row.total_seconds)},"days":[${days}],` +
    `"working_days":${number(row.working_days)},"workshift_seconds_per_day":${integer(shift)},"is_half_day":${startsHalfDay || endsHalfDay},` +
    `"starts_half_day":${startsHalfDay},"ends_half_day":${endsHalfDay},"start_time":${nullableText(times.startTime)},"end_time":${nullableText(times.endTime)},` +
    `"working_day_details":[${details}]}`
  );
}

/** The calendar the caller may read, as of the tenant's today, as the JSON text of its array of entries. */
export async function homeOfficeCalendarJson(db: Kysely<DB>, clock: Clock, tenant: Tenant, principal: Principal, filters: CalendarFilters): Promise<string> {
  if (filters.from && filters.to && filters.to < filters.from)
    throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
  const settings = await findSettings(db, tenant);
  if (!settings) throw new Error(`no PBX ${tenant.pbxId}`);
  const today = todayIn(settings.timezone, clock);
  const caller = principal.kind === 'user' ? await callerCompanies(db, tenant, principal.userId, today) : { employee: false, companyIds: [] };
  if (!caller.employee) throw new Forbidden('You have no employee record.');
  if (caller.companyIds.length === 0) throw new Forbidden('You have no active company: no contract of yours with a company is active today.');
  const rows = await entriesOf(db, tenant, caller.companyIds, today, filters).execute();
  const split = settings.half_day_split;
  const order = settings.name_order;
  const entries: string[] = [];
  let previous: string | undefined;
  for (const row of rows) {
    if (row.id === previous) continue;
    previous = row.id;
    entries.push(calendarEntryJson(row, split, order));
  }
  return `[${entries.join(',')}]`;
}
