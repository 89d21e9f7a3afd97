import { fullName, type NameOrder } from '../../organisation/index.js';
import type { PlanningStatusRow } from '../planning-statuses/planning-statuses.queries.js';
import type { PlanningEntryRow } from './schedules.queries.js';
import type { PlanningEntryView } from './schedules.schemas.js';
import { presentStatusRef } from './schedules.presenter.js';

/** A planning entry as the contract shows it: the booked employee's name in the tenant's order ('' when not found), its statuses by name. */
export function presentPlanningEntry(
  row: PlanningEntryRow,
  person: { first_name: string; last_name: string } | undefined,
  order: NameOrder,
  statuses: Map<string, PlanningStatusRow>,
): PlanningEntryView {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    employeeId: row.employee_id,
    employeeName: person ? fullName(person, order) : '',
    date: row.day,
    startTime: row.start_time,
    endTime: row.end_time,
    status: presentStatusRef(row.status_id, statuses),
    subStatus: presentStatusRef(row.sub_status_id, statuses),
    note: row.note,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
