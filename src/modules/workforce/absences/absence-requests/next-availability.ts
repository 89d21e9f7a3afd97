/**
 * When an employee is next at work: the first day from an anchor whose scheduled time is not all
 * taken by absences (more than the 15-minute tolerance left). The answer counts granted absences
 * (accepted, and accepted with a removal pending) plus the request it is asked for, and ignores
 * other queued requests; a removal row reads as taking its request's days back.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { addDays, type CalendarDay } from '../../shared/index.js';
import { workCalendar, type WorkDay } from '../../time/index.js';
import type { StoredAbsenceType } from '../absences.tables.js';
import { HALF_DAY_TOLERANCE_SECONDS } from './absence-amounts.js';
import { findAbsenceRequest, GRANTED_STATUSES, rowsOverlapping, type AbsenceTableRow } from './absence-requests.queries.js';
import type { NextAvailabilityReason, NextAvailabilityView } from './absence-requests.schemas.js';
import { halfDayTimes, requestedTimeOf } from './absence-requests.presenter.js';

/** The types the contract gives a next availability: absence (legal), illness, special leave. */
const AVAILABILITY_TYPES: ReadonlySet<StoredAbsenceType> = new Set(['absence', 'illness', 'special']);
/** How far ahead the search goes (then the answer is `no_scheduled_work`). */
export const SEARCH_DAYS = 366;

/** A row keeping the employee away, reduced to what the search reads. */
export interface AwayRow {
  id: string;
  requestedTime: Record<CalendarDay, number>;
  endDay: CalendarDay;
  /** When a half day that ends the row ends (null: the row does not end with a half day). */
  endTime: string | null;
}

export function awayRow(row: AbsenceTableRow, split: string): AwayRow {
  return { id: row.id, requestedTime: requestedTimeOf(row), endDay: row.end_day, endTime: halfDayTimes(row, split).endTime };
}

/** Home-office days are work; every other type keeps the employee away. */
const keepsAway = (type: StoredAbsenceType) => type !== 'home_office';

interface Search {
  anchor: CalendarDay;
  today: CalendarDay;
  /** The request the answer is for (its days count as away); absent for "from today". */
  requestId?: string;
  removal?: boolean;
}

/** Pure: the first day from the anchor with work left, over `days` (the anchor first) and the rows away. */
export function findNextAvailability(days: readonly WorkDay[], away: readonly AwayRow[], search: Search): NextAvailabilityView {
  let awayBefore = false;
  let othersAway = false;
  for (const { day, scheduledSeconds } of days) {
    if (day < search.anchor || scheduledSeconds <= 0) continue;
    let taken = 0;
    let endTime: string | null = null;
    for (const row of away) {
      const seconds = row.requestedTime[day] ?? 0;
      if (seconds <= 0) continue;
      taken += seconds;
      if (row.id !== search.requestId) othersAway = true;
      if (row.endDay === day && row.endTime !== null) endTime = row.endTime;
    }
    if (scheduledSeconds - taken > HALF_DAY_TOLERANCE_SECONDS) {
      return { date: day, time: taken > 0 ? endTime : null, in_past: day < search.today, reason: reasonOf(search, day, awayBefore, othersAway) };
    }
    // A day too short to count (15 minutes or less scheduled) with nothing taken is a day off, not an absence.
    if (taken > 0) awayBefore = true;
  }
  return { date: null, time: null, in_past: false, reason: 'no_scheduled_work' };
}

function reasonOf(search: Search, day: CalendarDay, awayBefore: boolean, othersAway: boolean): NextAvailabilityReason {
  if (search.removal) return 'removal';
  if (search.requestId) return othersAway ? 'after_absences' : 'after_request';
  if (day === search.anchor) return 'at_work';
  return awayBefore ? 'after_absences' : 'next_working_day';
}

async function searchFrom(
  db: Kysely<DB>,
  tenant: Tenant,
  employeeId: string,
  split: string,
  search: Search,
  adjust: (rows: AbsenceTableRow[]) => AbsenceTableRow[],
): Promise<NextAvailabilityView> {
  const last = addDays(search.anchor, SEARCH_DAYS);
  const [days, granted] = await Promise.all([
    workCalendar(db, tenant, employeeId, search.anchor, last),
    rowsOverlapping(db, tenant, employeeId, search.anchor, last, GRANTED_STATUSES),
  ]);
  const away = adjust(granted)
    .filter((row) => keepsAway(row.type))
    .map((row) => awayRow(row, split));
  return findNextAvailability(days, away, search);
}

/**
 * The `next_availability` of a ledger row: null for the types it does not apply to and for
 * balance adjustments. A request is anchored at its last day; a removal row at the first day of
 * the request it takes back.
 */
export async function nextAvailabilityOf(
  db: Kysely<DB>,
  tenant: Tenant,
  row: AbsenceTableRow,
  split: string,
  today: CalendarDay,
): Promise<NextAvailabilityView | null> {
  // A balance adjustment keeps nobody away.
  if (!AVAILABILITY_TYPES.has(row.type) || row.adjustment) return null;
  if (row.sub_type === 'removal') {
    const removed = row.removal_of_id ? await findAbsenceRequest(db, tenant, row.removal_of_id) : undefined;
    if (!removed) return null;
    return searchFrom(db, tenant, row.employee_id, split, { anchor: removed.start_day, today, removal: true }, (granted) =>
      granted.filter((other) => other.id !== removed.id),
    );
  }
  // A last day whose afternoon is taken keeps the employee away until the next working day.
  const anchor = row.half_day_part === 'afternoon' ? addDays(row.end_day, 1) : row.end_day;
  return searchFrom(db, tenant, row.employee_id, split, { anchor, today, requestId: row.id }, (granted) =>
    granted.some((other) => other.id === row.id) ? granted : [...granted, row],
  );
}

/** When the employee is next at work from today, counting granted absences only. */
export function nextAvailabilityFromToday(
  db: Kysely<DB>,
  tenant: Tenant,
  employeeId: string,
  split: string,
  today: CalendarDay,
): Promise<NextAvailabilityView> {
  return searchFrom(db, tenant, employeeId, split, { anchor: today, today }, (granted) => granted);
}
