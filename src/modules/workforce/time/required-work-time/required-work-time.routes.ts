import type { FastifyInstance } from 'fastify';
import { operationRoutes } from '../../../../http/resource-routes.js';
import type { AppContext, RoutePlugin } from '../../../../platform/context.js';
import { EmployeeParams } from '../../shared/index.js';
import { REQUIRED_WORK_TIME_DOCS } from './required-work-time.docs.js';
import { ownRequiredWorkTime, type AbsenceLedger } from './required-work-time.js';
import { RequiredWorkTime, RequiredWorkTimeQuery } from './required-work-time.schemas.js';

/**
 * `GET /{pbx_id}/user/{employee_id}/required-work-time`: a flat object of seconds per day, for the
 * employee itself only. `absences` is what approved absences take (the absences sub-domain's, handed
 * in by workforce/index.ts: time does not import absences, which stand on it).
 */
export const requiredWorkTimeRoutes = (absences: AbsenceLedger): RoutePlugin =>
  async function requiredWorkTimeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
    const { route } = operationRoutes(app, { tags: ['Workforce: required work time'], docs: REQUIRED_WORK_TIME_DOCS });
    route('/:pbx_id/user/:employee_id/required-work-time', {
      method: 'GET',
      auth: { user: true },
      operationId: 'getRequiredWorkTime',
      params: EmployeeParams,
      querystring: RequiredWorkTimeQuery,
      response: { 200: RequiredWorkTime },
      handle: ({ tenant, principal, params, query }) =>
        ownRequiredWorkTime(ctx.db, tenant, principal, params.employee_id, { from: query['filter[from]'], to: query['filter[to]'] }, absences),
    });
  };
