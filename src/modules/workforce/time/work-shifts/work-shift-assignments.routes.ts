import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { EmployeeParams } from '../../shared/index.js';
import { WorkShiftAssignmentsService, type AssignmentRow } from './work-shift-assignments.service.js';
import {
  AssignmentInclude,
  AssignmentListQuery,
  AssignmentParams,
  CreateAssignmentBody,
  UpdateAssignmentBody,
  WorkShift,
  WorkShiftAssignment,
} from './work-shifts.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** Which work shift an employee works over which days. */
export async function workShiftAssignmentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WorkShiftAssignmentsService(ctx);
  app.addSchema(WorkShift);
  const assignments = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: work shifts'],
    schema: WorkShiftAssignment,
    present: (rows: AssignmentRow[], { call, include }) => service.present(call.tenant, rows, include.has('work_shift')),
  });

  assignments.list('/:pbx_id/user/:employee_id/work-shift-assignments', {
    auth: READERS,
    operationId: 'listWorkShiftAssignments',
    summary: "An employee's work shift assignments (paginated)",
    description:
      'Readable by the employee itself, by an administrator of the PBX for any of its employees, and by the PBX API key; any other user is 403, an unknown employee 404. ' +
      'filter[from] and filter[to] keep the assignments valid on some day between them (filter[to] before filter[from] is 422); sort by valid_from, default -valid_from. ' +
      'include=work_shift embeds the pattern. filter[trashed]=with|only shows deleted ones to administrators and the PBX key.',
    params: EmployeeParams,
    querystring: AssignmentListQuery,
    defaultSort: [{ field: 'valid_from', direction: 'desc' }],
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      service.listForEmployee(
        tenant,
        principal,
        params.employee_id,
        { from: query['filter[from]'], to: query['filter[to]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  assignments.create('/:pbx_id/user/:employee_id/work-shift-assignments', {
    auth: MANAGERS,
    operationId: 'createWorkShiftAssignment',
    summary: 'Assign a work shift to an employee over a period (administrators, PBX API key)',
    description:
      'work_shift_id names a live work shift of the PBX; valid_from is the first day, valid_until the last (null or left out = open-ended), not before valid_from. ' +
      "Two live assignments of one employee may not share a day: 422 naming the other one's id and period. Unknown employee: 404.",
    params: EmployeeParams,
    body: CreateAssignmentBody,
    include: ['work_shift'],
    run: ({ tenant, params, body }) => service.create(tenant, params.employee_id, body),
  });
  assignments.read('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'getWorkShiftAssignment',
    summary: 'One work shift assignment (administrators, PBX API key)',
    description: "Another tenant's or a deleted assignment is 404. include=work_shift embeds the pattern.",
    params: AssignmentParams,
    querystring: AssignmentInclude,
    load: ({ tenant, params }) => service.get(tenant, params.assignment),
  });
  assignments.update('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'updateWorkShiftAssignment',
    summary: 'Change a work shift assignment (administrators, PBX API key)',
    description:
      'Changes the fields sent (valid_until null makes it open-ended); the resulting period must not overlap another live assignment of the employee (422).',
    params: AssignmentParams,
    body: UpdateAssignmentBody,
    include: ['work_shift'],
    run: ({ tenant, params, body }) => service.update(tenant, params.assignment, body),
  });
  assignments.delete('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'deleteWorkShiftAssignment',
    summary: 'Soft-delete a work shift assignment (administrators, PBX API key)',
    description: 'Its days count no work time from then on; restorable.',
    params: AssignmentParams,
    run: ({ tenant, params }) => service.remove(tenant, params.assignment),
  });
  assignments.restore('/:pbx_id/work-shift-assignments/:assignment/restore', {
    auth: MANAGERS,
    operationId: 'restoreWorkShiftAssignment',
    summary: 'Restore a soft-deleted work shift assignment (administrators, PBX API key)',
    description: '422 when a live assignment of the employee now covers part of its period; 404 when it is not deleted.',
    params: AssignmentParams,
    include: ['work_shift'],
    run: ({ tenant, params }) => service.restore(tenant, params.assignment),
  });
}
