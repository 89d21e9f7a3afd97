import type { WorkShiftRow } from './work-shifts.queries.js';
import { WEEKDAYS, type WorkShiftView } from './work-shifts.schemas.js';

/** A weekly pattern as the contract shows it, with its week's sum (`weekly_seconds`). */
export function presentWorkShift(row: WorkShiftRow): WorkShiftView {
  return {
    id: row.id,
    name: row.name,
    monday: row.monday,
    tuesday: row.tuesday,
    wednesday: row.wednesday,
    thursday: row.thursday,
    friday: row.friday,
    saturday: row.saturday,
    sunday: row.sunday,
    weekly_seconds: WEEKDAYS.reduce((sum, day) => sum + row[day], 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
    delete_date: row.deleted_at,
  };
}
