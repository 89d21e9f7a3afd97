/**
 * A ledger row as the contract shows it: stored `approved`/`cancelled`/`absence` read as
 * `accepted`/`canceled`/`legal`, the ids the contract repeats, the half-day hours (the row's own,
 * else the tenant's split) and the day details derived from the stored amounts.
 */
import { addDays, dayAsDateTime, type CalendarDay } from '../../shared/index.js';
import type { StoredAbsenceStatus, StoredAbsenceType } from '../absences.tables.js';
import { workingDayDetails, type AbsencePeriod } from './absence-amounts.js';
import type { AbsenceRow, AbsenceTableRow, ValidatorRow } from './absence-requests.queries.js';
import type { AbsenceRequestView, AbsenceStatus, AbsenceType, BalanceAdjustmentView, NextAvailabilityView } from './absence-requests.schemas.js';

const TYPES_OUT: Record<StoredAbsenceType, AbsenceType> = {
  absence: 'legal',
  home_office: 'home_office',
  illness: 'illness',
  special: 'special',
  overtime_balance: 'overtime_balance',
};
const STATUSES_OUT: Record<StoredAbsenceStatus, AbsenceStatus> = {
  pending: 'pending',
  approved: 'accepted',
  rejected: 'rejected',
  cancelled: 'canceled',
  pending_removal: 'pending_removal',
  removed: 'removed',
};

const invert = <K extends string, V extends string>(map: Record<K, V>) => Object.fromEntries(Object.entries(map).map(([k, v]) => [v, k])) as Record<V, K>;
const TYPES_IN = invert(TYPES_OUT);
const STATUSES_IN = invert(STATUSES_OUT);

export const storedType = (type: AbsenceType): StoredAbsenceType => TYPES_IN[type];
export const storedStatus = (status: AbsenceStatus): StoredAbsenceStatus => STATUSES_IN[status];
export const exposedType = (type: StoredAbsenceType): AbsenceType => TYPES_OUT[type];

/** Comma-separated contract spellings (validated by the list schema) as stored ones. */
export const storedTypes = (list: string | undefined) => list?.split(',').map((type) => storedType(type as AbsenceType));
export const storedStatuses = (list: string | undefined) => list?.split(',').map((status) => storedStatus(status as AbsenceStatus));

export function periodOf(row: Pick<AbsenceTableRow, 'start_day' | 'end_day' | 'starts_half_day' | 'ends_half_day'>): AbsencePeriod {
  return { start: row.start_day, end: row.end_day, startsHalfDay: row.starts_half_day === 1, endsHalfDay: row.ends_half_day === 1 };
}

export const requestedTimeOf = (row: Pick<AbsenceTableRow, 'requested_time'>): Record<CalendarDay, number> =>
  JSON.parse(row.requested_time) as Record<CalendarDay, number>;

/**
 * The half-day hours a row shows: its own, else the tenant's split; null on a side that is not a
 * half day. A single half day shows the hour of its half only: the morning's end (off until then)
 * or the afternoon's start (off from then).
 */
export function halfDayTimes(
  row: Pick<AbsenceTableRow, 'half_day_part' | 'start_time' | 'end_time' | 'starts_half_day' | 'ends_half_day'>,
  split: string,
): { startTime: string | null; endTime: string | null } {
  if (row.half_day_part === 'morning') return { startTime: null, endTime: row.end_time ?? split };
  if (row.half_day_part === 'afternoon') return { startTime: row.start_time ?? split, endTime: null };
  return {
    startTime: row.starts_half_day === 1 ? (row.start_time ?? split) : null,
    endTime: row.ends_half_day === 1 ? (row.end_time ?? split) : null,
  };
}

/**
 * A balance adjustment's amount with its sign, in the unit of the balance it changed. The row
 * stores the unsigned amount in working_days (days) or total_seconds (overtime) with its direction,
 * which is what the run applied (balances.ts); the contract's fields show 0 there, as no time is taken.
 */
export function adjustmentOf(
  row: Pick<AbsenceTableRow, 'adjustment' | 'working_days' | 'total_seconds' | 'recurring_transaction_id'>,
): BalanceAdjustmentView | null {
  if (!row.adjustment || !row.recurring_transaction_id) return null;
  const sign = row.adjustment === 'debit' ? -1 : 1;
  return {
    tr_type: row.adjustment,
    // `+ 0` turns the -0 of a debit of nothing into 0.
    working_days: sign * row.working_days + 0,
    seconds: sign * row.total_seconds + 0,
    recurring_transaction_id: row.recurring_transaction_id,
  };
}

export function presentAbsence(row: AbsenceRow, validators: ValidatorRow[], split: string, nextAvailability?: NextAvailabilityView | null): AbsenceRequestView {
  const period = periodOf(row);
  const times = halfDayTimes(row, split);
  const requestedTime = requestedTimeOf(row);
  const adjustment = adjustmentOf(row);
  return {
    id: row.id,
    mxvp_user_id: row.pbx_id,
    employee_id: row.employee_id,
    requester_id: row.employee_id,
    creator_id: row.employee_id,
    ext_id: row.ext_id,
    company_id: row.company_id,
    absence_request_id: row.id,
    holiday_id: null,
    status: STATUSES_OUT[row.status],
    type: TYPES_OUT[row.type],
    sub_type: row.sub_type,
    start: dayAsDateTime(row.start_day),
    end: dayAsDateTime(addDays(row.end_day, 1)),
    requested_time: requestedTime,
    // An adjustment takes no time: its amount is in `adjustment` alone.
    working_days: adjustment ? 0 : row.working_days,
    total_seconds: adjustment ? 0 : row.total_seconds,
    workshift_seconds_per_day: row.workshift_seconds_per_day,
    is_half_day: period.startsHalfDay || period.endsHalfDay,
    starts_half_day: period.startsHalfDay,
    ends_half_day: period.endsHalfDay,
    start_time: times.startTime,
    end_time: times.endTime,
    working_day_details: workingDayDetails(requestedTime, row.workshift_seconds_per_day, period, times),
    comment: row.comment,
    accepted_by: validators.map((entry) => ({ employee_id: entry.employee_id, status: entry.status })),
    ...(nextAvailability === undefined ? {} : { next_availability: nextAvailability }),
    request_group_id: row.request_group_id,
    removal_of_id: row.removal_of_id,
    adjustment,
    recurring_transaction_id: row.recurring_transaction_id,
    created: row.created_at,
    modified: row.updated_at,
  };
}
