import type { AssignmentRow } from './work-shift-assignments.queries.js';
import type { WorkShiftRow } from './work-shifts.queries.js';
import type { WorkShiftAssignmentView } from './work-shifts.schemas.js';
import { presentWorkShift } from './work-shifts.presenter.js';

/** An assignment as the contract shows it; `shift` (its pattern) is embedded when given (`include=work_shift`). */
export function presentWorkShiftAssignment(row: AssignmentRow, shift: WorkShiftRow | undefined): WorkShiftAssignmentView {
  return {
    id: row.id,
    employee_id: row.employee_id,
    work_shift_id: row.work_shift_id,
    valid_from: row.valid_from,
    valid_until: row.valid_until,
    ...(shift ? { work_shift: presentWorkShift(shift) } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    delete_date: row.deleted_at,
  };
}
