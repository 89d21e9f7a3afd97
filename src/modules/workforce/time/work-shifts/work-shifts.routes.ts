import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { WORK_SHIFTS_DOCS } from './work-shifts.docs.js';
import { presentWorkShift } from './work-shifts.presenter.js';
import { WorkShiftsService, type WorkShiftRow } from './work-shifts.service.js';
import { CreateWorkShiftBody, UpdateWorkShiftBody, WorkShift, WorkShiftListQuery, WorkShiftParams } from './work-shifts.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's named weekly patterns ("Full time 40 h"): seconds of work per ISO weekday. */
export async function workShiftRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WorkShiftsService(ctx);
  const shifts = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: work shifts'],
    docs: WORK_SHIFTS_DOCS,
    schema: WorkShift,
    present: (rows: WorkShiftRow[]) => rows.map(presentWorkShift),
  });

  shifts.list('/:pbx_id/work-shifts', {
    auth: READERS,
    operationId: 'listWorkShifts',
    params: PbxParams,
    querystring: WorkShiftListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, trashed: query['filter[trashed]'] }, sort, page),
  });
  shifts.read('/:pbx_id/work-shifts/:work_shift', {
    auth: READERS,
    operationId: 'getWorkShift',
    params: WorkShiftParams,
    load: ({ tenant, params }) => service.get(tenant, params.work_shift),
  });
  shifts.create('/:pbx_id/work-shifts', {
    auth: MANAGERS,
    operationId: 'createWorkShift',
    params: PbxParams,
    body: CreateWorkShiftBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  shifts.update('/:pbx_id/work-shifts/:work_shift', {
    auth: MANAGERS,
    operationId: 'updateWorkShift',
    params: WorkShiftParams,
    body: UpdateWorkShiftBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.work_shift, body),
  });
  shifts.delete('/:pbx_id/work-shifts/:work_shift', {
    auth: MANAGERS,
    operationId: 'deleteWorkShift',
    params: WorkShiftParams,
    run: ({ tenant, params }) => service.remove(tenant, params.work_shift),
  });
  shifts.restore('/:pbx_id/work-shifts/:work_shift/restore', {
    auth: MANAGERS,
    operationId: 'restoreWorkShift',
    params: WorkShiftParams,
    run: ({ tenant, params }) => service.restore(tenant, params.work_shift),
  });
}
