import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { WorkShiftsService, presentWorkShift, type WorkShiftRow } from './work-shifts.service.js';
import { CreateWorkShiftBody, UpdateWorkShiftBody, WorkShift, WorkShiftListQuery, WorkShiftParams } from './work-shifts.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's named weekly patterns ("Full time 40 h"): seconds of work per ISO weekday. */
export async function workShiftRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WorkShiftsService(ctx);
  const shifts = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: work shifts'],
    schema: WorkShift,
    present: (rows: WorkShiftRow[]) => rows.map(presentWorkShift),
  });

  shifts.list('/:pbx_id/work-shifts', {
    auth: READERS,
    operationId: 'listWorkShifts',
    summary: 'Work shifts of the PBX (any user of the PBX may read them)',
    description:
      'Named weekly patterns with the seconds of work per ISO weekday (monday..sunday) and their sum, weekly_seconds. ' +
      'search matches the name; sort by name (default), weekly_seconds or created_at. filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
    params: PbxParams,
    querystring: WorkShiftListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, trashed: query['filter[trashed]'] }, sort, page),
  });
  shifts.read('/:pbx_id/work-shifts/:work_shift', {
    auth: READERS,
    operationId: 'getWorkShift',
    summary: 'One work shift',
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted work shift is 404.',
    params: WorkShiftParams,
    load: ({ tenant, params }) => service.get(tenant, params.work_shift),
  });
  shifts.create('/:pbx_id/work-shifts', {
    auth: MANAGERS,
    operationId: 'createWorkShift',
    summary: 'Create a work shift (administrators, PBX API key)',
    description: 'name (unique among the live work shifts of the PBX, else 422) and the seconds per weekday, each 0 to 86400; a day left out is 0.',
    params: PbxParams,
    body: CreateWorkShiftBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  shifts.update('/:pbx_id/work-shifts/:work_shift', {
    auth: MANAGERS,
    operationId: 'updateWorkShift',
    summary: 'Change a work shift (administrators, PBX API key)',
    description:
      'Changes the fields sent. The pattern counts for every day it is assigned, past days included: to change working hours from a date on, ' +
      'create another work shift and assign it from that date.',
    params: WorkShiftParams,
    body: UpdateWorkShiftBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.work_shift, body),
  });
  shifts.delete('/:pbx_id/work-shifts/:work_shift', {
    auth: MANAGERS,
    operationId: 'deleteWorkShift',
    summary: 'Soft-delete a work shift (administrators, PBX API key)',
    description:
      'A deleted work shift can no longer be assigned (422) and frees its name; the assignments already made keep it, so required work time stays as it was. Restorable.',
    params: WorkShiftParams,
    run: ({ tenant, params }) => service.remove(tenant, params.work_shift),
  });
  shifts.restore('/:pbx_id/work-shifts/:work_shift/restore', {
    auth: MANAGERS,
    operationId: 'restoreWorkShift',
    summary: 'Restore a soft-deleted work shift (administrators, PBX API key)',
    description: '422 when a live work shift has taken its name meanwhile; 404 when it is not deleted.',
    params: WorkShiftParams,
    run: ({ tenant, params }) => service.restore(tenant, params.work_shift),
  });
}
