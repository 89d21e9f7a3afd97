import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { PLANNING_STATUSES_DOCS } from './planning-statuses.docs.js';
import { presentPlanningStatus } from './planning-statuses.presenter.js';
import { PlanningStatusesService, type PlanningStatusRow } from './planning-statuses.service.js';
import { CreatePlanningStatusBody, PlanningStatus, PlanningStatusParams, UpdatePlanningStatusBody } from './planning-statuses.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's planning statuses and sub-statuses, which schedules and their entries are marked with. */
export async function planningStatusRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PlanningStatusesService(ctx);
  const statuses = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: schedules and planning'],
    docs: PLANNING_STATUSES_DOCS,
    schema: PlanningStatus,
    present: (rows: PlanningStatusRow[]) => rows.map(presentPlanningStatus),
  });

  statuses.all('/:pbx_id/planning-statuses', {
    auth: READERS,
    operationId: 'listPlanningStatuses',
    params: PbxParams,
    fetch: ({ tenant }) => service.list(tenant),
  });
  statuses.read('/:pbx_id/planning-statuses/:status', {
    auth: READERS,
    operationId: 'getPlanningStatus',
    params: PlanningStatusParams,
    load: ({ tenant, params }) => service.get(tenant, params.status),
  });
  statuses.create('/:pbx_id/planning-statuses', {
    auth: MANAGERS,
    operationId: 'createPlanningStatus',
    params: PbxParams,
    body: CreatePlanningStatusBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  statuses.update('/:pbx_id/planning-statuses/:status', {
    auth: MANAGERS,
    operationId: 'updatePlanningStatus',
    params: PlanningStatusParams,
    body: UpdatePlanningStatusBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.status, body),
  });
  statuses.delete('/:pbx_id/planning-statuses/:status', {
    auth: MANAGERS,
    operationId: 'deletePlanningStatus',
    params: PlanningStatusParams,
    run: ({ tenant, params }) => service.remove(tenant, params.status),
  });
}
