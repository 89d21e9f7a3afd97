import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of work-shift-assignments.routes.ts, by operation id. */
export const WORK_SHIFT_ASSIGNMENTS_DOCS = {
  listWorkShiftAssignments: {
    summary: "An employee's work shift assignments (paginated)",
    description:
      'Readable by the employee itself, by an administrator of the PBX for any of its employees, and by the PBX API key; any other user is 403, an unknown employee 404. ' +
      'filter[from] and filter[to] keep the assignments valid on some day between them (filter[to] before filter[from] is 422); sort by valid_from, default -valid_from. ' +
      'include=work_shift embeds the pattern. filter[trashed]=with|only shows deleted ones to administrators and the PBX key.',
  },
  createWorkShiftAssignment: {
    summary: 'Assign a work shift to an employee over a period (administrators, PBX API key)',
    description:
      'work_shift_id names a live work shift of the PBX; valid_from is the first day, valid_until the last (null or left out = open-ended), not before valid_from. ' +
      "Two live assignments of one employee may not share a day: 422 naming the other one's id and period. Unknown employee: 404.",
  },
  getWorkShiftAssignment: {
    summary: 'One work shift assignment (administrators, PBX API key)',
    description: "Another tenant's or a deleted assignment is 404. include=work_shift embeds the pattern.",
  },
  updateWorkShiftAssignment: {
    summary: 'Change a work shift assignment (administrators, PBX API key)',
    description:
      'Changes the fields sent (valid_until null makes it open-ended); the resulting period must not overlap another live assignment of the employee (422).',
  },
  deleteWorkShiftAssignment: {
    summary: 'Soft-delete a work shift assignment (administrators, PBX API key)',
    description: 'Its days count no work time from then on; restorable.',
  },
  restoreWorkShiftAssignment: {
    summary: 'Restore a soft-deleted work shift assignment (administrators, PBX API key)',
    description: '422 when a live assignment of the employee now covers part of its period; 404 when it is not deleted.',
  },
} satisfies OperationDocs;
