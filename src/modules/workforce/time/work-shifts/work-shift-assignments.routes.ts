import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { EmployeeParams } from '../../shared/index.js';
import { WORK_SHIFT_ASSIGNMENTS_DOCS } from './work-shift-assignments.docs.js';
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
    docs: WORK_SHIFT_ASSIGNMENTS_DOCS,
    schema: WorkShiftAssignment,
    present: (rows: AssignmentRow[], { call, include }) => service.present(call.tenant, rows, include.has('work_shift')),
  });

  assignments.list('/:pbx_id/user/:employee_id/work-shift-assignments', {
    auth: READERS,
    operationId: 'listWorkShiftAssignments',
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
    params: EmployeeParams,
    body: CreateAssignmentBody,
    include: ['work_shift'],
    run: ({ tenant, params, body }) => service.create(tenant, params.employee_id, body),
  });
  assignments.read('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'getWorkShiftAssignment',
    params: AssignmentParams,
    querystring: AssignmentInclude,
    load: ({ tenant, params }) => service.get(tenant, params.assignment),
  });
  assignments.update('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'updateWorkShiftAssignment',
    params: AssignmentParams,
    body: UpdateAssignmentBody,
    include: ['work_shift'],
    run: ({ tenant, params, body }) => service.update(tenant, params.assignment, body),
  });
  assignments.delete('/:pbx_id/work-shift-assignments/:assignment', {
    auth: MANAGERS,
    operationId: 'deleteWorkShiftAssignment',
    params: AssignmentParams,
    run: ({ tenant, params }) => service.remove(tenant, params.assignment),
  });
  assignments.restore('/:pbx_id/work-shift-assignments/:assignment/restore', {
    auth: MANAGERS,
    operationId: 'restoreWorkShiftAssignment',
    params: AssignmentParams,
    include: ['work_shift'],
    run: ({ tenant, params }) => service.restore(tenant, params.assignment),
  });
}
