/**
 * Contracted work time per calendar day of one employee: the seconds its work calendar schedules
 * (0 outside every contract or assignment; a holiday of the contract's company clears or halves
 * them), minus approved absences, never below zero.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import { ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { ownEmployeeOnly } from '../../organisation/index.js';
import { daysInclusive, type CalendarDay } from '../../shared/index.js';
import { MAX_REQUIRED_WORK_TIME_DAYS } from './required-work-time.schemas.js';
import { workCalendar } from './work-calendar.js';

/**
 * Seconds of approved absence per day of `from`..`to` (days without any are left out). Time only
 * declares what it needs: the absences sub-domain, which stands on time's work calendar, answers
 * it (`approvedAbsenceSeconds`) and the workforce's index.ts hands it in, so time never imports
 * absences.
 */
export type AbsenceLedger = (db: Kysely<DB>, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay) => Promise<Map<CalendarDay, number>>;

/** Seconds per day of `from`..`to`, every day present, in order, less what `ledger` says approved absences take. */
export async function requiredWorkTime(
  db: Kysely<DB>,
  tenant: Tenant,
  employeeId: string,
  from: CalendarDay,
  to: CalendarDay,
  ledger: AbsenceLedger,
): Promise<Record<CalendarDay, number>> {
  const [days, absences] = await Promise.all([workCalendar(db, tenant, employeeId, from, to), ledger(db, tenant, employeeId, from, to)]);
  const result: Record<CalendarDay, number> = {};
  for (const { day, scheduledSeconds } of days) result[day] = Math.max(0, scheduledSeconds - (absences.get(day) ?? 0));
  return result;
}

/**
 * What `GET …/required-work-time` answers: the caller's own employee only (anyone else is 403, so
 * the answer says nothing of whether the id exists), over a range of at most
 * MAX_REQUIRED_WORK_TIME_DAYS days, both ends counted.
 */
export async function ownRequiredWorkTime(
  db: Kysely<DB>,
  tenant: Tenant,
  principal: Principal,
  employeeId: string,
  range: { from: CalendarDay; to: CalendarDay },
  ledger: AbsenceLedger,
): Promise<Record<CalendarDay, number>> {
  const employee = await ownEmployeeOnly(db, tenant, principal, employeeId);
  const { from, to } = range;
  if (to < from) throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
  if (daysInclusive(from, to) > MAX_REQUIRED_WORK_TIME_DAYS)
    throw ValidationFailed.field('filter[to]', `The range may span at most ${MAX_REQUIRED_WORK_TIME_DAYS} days, both ends counted.`);
  return requiredWorkTime(db, tenant, employee.id, from, to, ledger);
}
