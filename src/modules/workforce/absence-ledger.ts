/**
 * The one way required work time learns about absences: the seconds granted rows (accepted, and
 * accepted with a removal pending) take per day. Home-office days are work, so they take nothing.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Tenant } from '../../platform/tenancy.js';
import type { CalendarDay } from './shared/index.js';
import { GRANTED_STATUSES, rowsOverlapping } from './absences/absence-requests.queries.js';
import { requestedTimeOf } from './absences/absence-view.js';

/** Seconds of approved absence per day of `from`..`to` (days without any are left out). */
export type AbsenceLedger = (db: Kysely<DB>, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay) => Promise<Map<CalendarDay, number>>;

export const approvedAbsenceSeconds: AbsenceLedger = async (db, tenant, employeeId, from, to) => {
  const seconds = new Map<CalendarDay, number>();
  for (const row of await rowsOverlapping(db, tenant, employeeId, from, to, GRANTED_STATUSES)) {
    if (row.type === 'home_office') continue;
    for (const [day, taken] of Object.entries(requestedTimeOf(row))) if (day >= from && day <= to) seconds.set(day, (seconds.get(day) ?? 0) + taken);
  }
  return seconds;
};
