import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { PlanningStatusesService, presentPlanningStatus, type PlanningStatusRow } from './planning-statuses.service.js';
import { CreatePlanningStatusBody, PlanningStatus, PlanningStatusParams, UpdatePlanningStatusBody } from './planning-statuses.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's planning statuses and sub-statuses, which schedules and their entries are marked with. */
export async function planningStatusRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PlanningStatusesService(ctx);
  const statuses = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: schedules and planning'],
    schema: PlanningStatus,
    present: (rows: PlanningStatusRow[]) => rows.map(presentPlanningStatus),
  });

  statuses.all('/:pbx_id/planning-statuses', {
    auth: READERS,
    operationId: 'listPlanningStatuses',
    summary: 'Planning statuses of the PBX (any user of the PBX may read them)',
    description: 'Every live status by name, each followed by its sub-statuses (parentId set) by name, as `{data}`.',
    params: PbxParams,
    fetch: ({ tenant }) => service.list(tenant),
  });
  statuses.read('/:pbx_id/planning-statuses/:status', {
    auth: READERS,
    operationId: 'getPlanningStatus',
    summary: 'One planning status',
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted status is 404.',
    params: PlanningStatusParams,
    load: ({ tenant, params }) => service.get(tenant, params.status),
  });
  statuses.create('/:pbx_id/planning-statuses', {
    auth: MANAGERS,
    operationId: 'createPlanningStatus',
    summary: 'Create a planning status or sub-status (administrators, PBX API key)',
    description:
      'name (1-64, unique among the live statuses, or among the sub-statuses of the same status, else 422); parentId makes it a sub-status of a live status ' +
      '(not of a sub-status: one level only, else 422); color #RRGGBB or null.',
    params: PbxParams,
    body: CreatePlanningStatusBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  statuses.update('/:pbx_id/planning-statuses/:status', {
    auth: MANAGERS,
    operationId: 'updatePlanningStatus',
    summary: 'Rename or recolour a planning status (administrators, PBX API key)',
    description: 'Changes the fields sent; whether it is a sub-status, and of which status, is fixed at creation.',
    params: PlanningStatusParams,
    body: UpdatePlanningStatusBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.status, body),
  });
  statuses.delete('/:pbx_id/planning-statuses/:status', {
    auth: MANAGERS,
    operationId: 'deletePlanningStatus',
    summary: 'Delete a planning status and its sub-statuses (administrators, PBX API key)',
    description: 'Soft delete: schedules and planning entries that name it keep showing it, but it can no longer be chosen (422).',
    params: PlanningStatusParams,
    run: ({ tenant, params }) => service.remove(tenant, params.status),
  });
}
