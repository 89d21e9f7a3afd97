import { fullName, type NameOrder } from '../../organisation/index.js';
import type { PlanningStatusRow } from '../planning-statuses/planning-statuses.queries.js';
import type { ScopeType } from '../scheduling.tables.js';
import type { SchedulePool } from './schedule-pool.js';
import { parseIds, type ScheduleRow } from './schedules.queries.js';
import type { ScheduleView } from './schedules.schemas.js';

/** What a page of schedules reads once for all of them: the tenant's name order and the rows their ids name. */
export interface ScheduleLookups {
  order: NameOrder;
  companies: Map<string, { name: string }>;
  departments: Map<string, { name: string }>;
  people: Map<string, { first_name: string; last_name: string }>;
  statuses: Map<string, PlanningStatusRow>;
}

/** A status (or sub-status) as a schedule or an entry names it; null when unset or no longer found. */
export function presentStatusRef(id: string | null, statuses: Map<string, PlanningStatusRow>): { id: string; name: string } | null {
  const status = id ? statuses.get(id) : undefined;
  return status ? { id: status.id, name: status.name } : null;
}

/**
 * A schedule as the contract shows it, flat: its scope by name (only the list of its scopeType is
 * filled; `selected` is its stored selection), the departments it covers and the employees it may
 * assign (`pool`), and its statuses.
 */
export function presentSchedule(row: ScheduleRow, selected: readonly string[], pool: SchedulePool, lookups: ScheduleLookups): ScheduleView {
  const pick = (type: ScopeType) => (row.scope_type === type ? selected : []);
  const named = (map: Map<string, { name: string }>) => (id: string) => ({ id, name: map.get(id)?.name ?? '' });
  return {
    id: row.id,
    name: row.name,
    department: pool.departments[0] ? { id: pool.departments[0].id, name: pool.departments[0].name ?? '' } : null,
    scopeType: row.scope_type,
    scope: {
      companies: pick('company').map(named(lookups.companies)),
      departments: pick('department').map(named(lookups.departments)),
      employees: pick('employees').map((id) => {
        const person = lookups.people.get(id);
        return { id, fullName: person ? fullName(person, lookups.order) : '' };
      }),
    },
    departments: pool.departments,
    employees: pool.employees,
    daysOfWeek: JSON.parse(row.days_of_week) as number[],
    dayStartTime: row.day_start_time,
    dayEndTime: row.day_end_time,
    slotDurationMinutes: row.slot_duration_minutes,
    status: presentStatusRef(row.status_id, lookups.statuses),
    subStatus: presentStatusRef(row.sub_status_id, lookups.statuses),
    statusFilters: parseIds(row.status_filters),
    isActive: row.is_active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
