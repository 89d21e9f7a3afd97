import type { TenantHolidayRow } from './holidays.queries.js';
import type { TenantHolidayView } from './holidays.schemas.js';

/** One of the tenant's holidays as the contract shows it (its flags as booleans). */
export function presentHoliday(row: TenantHolidayRow): TenantHolidayView {
  return {
    id: row.id,
    date: row.date,
    name: row.name,
    half_day: row.half_day === 1,
    recurring: row.recurring === 1,
    company_id: row.company_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    delete_date: row.deleted_at,
  };
}
