/**
 * The one way required work time learns about absences: the seconds granted rows (accepted, and
 * accepted with a removal pending) take per day. Home-office days are work, so they take nothing.
 * It sits here, beside the ledger it reads, and answers the type time declares: absences stand on
 * time's work calendar, so time cannot import them (workforce/index.ts hands this to time's routes).
 */
import type { CalendarDay } from '../../shared/index.js';
import type { AbsenceLedger } from '../../time/index.js';
import { GRANTED_STATUSES, rowsOverlapping } from './absence-requests.queries.js';
import { requestedTimeOf } from './absence-requests.presenter.js';

export const approvedAbsenceSeconds: AbsenceLedger = async (db, tenant, employeeId, from, to) => {
  const seconds = new Map<CalendarDay, number>();
  for (const row of await rowsOverlapping(db, tenant, employeeId, from, to, GRANTED_STATUSES)) {
    if (row.type === 'home_office') continue;
    for (const [day, taken] of Object.entries(requestedTimeOf(row))) if (day >= from && day <= to) seconds.set(day, (seconds.get(day) ?? 0) + taken);
  }
  return seconds;
};
