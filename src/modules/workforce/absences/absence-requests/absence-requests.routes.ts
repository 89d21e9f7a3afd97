import type { FastifyInstance } from 'fastify';
import { resourceRoutes, type ResourceCall } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { EmployeeParams, PbxParams } from '../../shared/index.js';
import { AbsenceMovesService } from './absence-moves.service.js';
import { ABSENCE_REQUESTS_DOCS } from './absence-requests.docs.js';
import { AbsenceRequestsService, type AbsenceCaller, type AbsenceRow, type LoadedAbsence } from './absence-requests.service.js';
import { AbsenceListQuery, AbsenceRequest, AbsenceRequestParams, CreateAbsenceBody, EmployeeAbsenceListQuery } from './absence-requests.schemas.js';

/** User tokens (the employee itself, its validators, administrators) and the PBX API key. */
const CALLERS = { user: true, pbx: true } as const;
const DEFAULT_SORT = [{ field: 'start', direction: 'desc' as const }];

/**
 * Absence requests (the time-tracking ledger): asking, reading, listing, and the moves. Home-office
 * days are asked for with their own request (home-office/).
 */
export async function absenceRequestRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AbsenceRequestsService(ctx);
  const moves = new AbsenceMovesService(ctx);
  // Every route resolves the caller (the policy's actor) and the tenant's settings once, in one statement.
  const definition = {
    tags: ['Workforce: absences'],
    docs: ABSENCE_REQUESTS_DOCS,
    schema: AbsenceRequest,
    scope: ({ tenant, principal }: ResourceCall): Promise<AbsenceCaller> => service.caller(tenant, principal),
  };
  // Lists show next_availability when asked; single answers always do.
  const listed = resourceRoutes(app, ctx.config.baseUrl, {
    ...definition,
    present: (rows: AbsenceRow[], { call, include }) => service.present(call.tenant, rows, include.has('next_availability'), call.scope.settings),
  });
  const single = resourceRoutes(app, ctx.config.baseUrl, {
    ...definition,
    present: (rows: LoadedAbsence[], { call }) => service.present(call.tenant, rows, true, call.scope.settings),
  });

  listed.list('/:pbx_id/user/:employee_id/absence-requests', {
    auth: CALLERS,
    operationId: 'listEmployeeAbsenceRequests',
    params: EmployeeParams,
    querystring: EmployeeAbsenceListQuery,
    defaultSort: DEFAULT_SORT,
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      service.listForEmployee(
        tenant,
        principal,
        params.employee_id,
        { status: query['filter[status]'], type: query['filter[type]'], from: query['filter[from]'], to: query['filter[to]'] },
        sort,
        page,
      ),
  });
  single.create('/:pbx_id/user/:employee_id/absence-requests', {
    auth: CALLERS,
    operationId: 'createAbsenceRequest',
    params: EmployeeParams,
    body: CreateAbsenceBody,
    run: ({ tenant, principal, scope, params, body }) => service.create(tenant, principal, scope.actor, params.employee_id, body),
  });
  listed.list('/:pbx_id/absence-requests', {
    auth: CALLERS,
    operationId: 'listAbsenceRequests',
    params: PbxParams,
    querystring: AbsenceListQuery,
    defaultSort: DEFAULT_SORT,
    fetch: ({ tenant, scope, query }, { sort, page }) =>
      service.list(
        tenant,
        scope.actor,
        {
          status: query['filter[status]'],
          type: query['filter[type]'],
          from: query['filter[from]'],
          to: query['filter[to]'],
          employee_id: query['filter[employee_id]'],
          awaiting_me: query['filter[awaiting_me]'],
        },
        sort,
        page,
      ),
  });
  single.read('/:pbx_id/absence-requests/:absence_request', {
    auth: CALLERS,
    operationId: 'getAbsenceRequest',
    params: AbsenceRequestParams,
    load: ({ tenant, scope, params }) => service.get(tenant, scope.actor, params.absence_request),
  });

  // Each move answers the row it wrote, with its validator entries: nothing is read again to present it.
  single.action('/:pbx_id/absence-requests/:absence_request/approve', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'approveAbsenceRequest',
    idempotent: true,
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.approve(tenant, principal, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/reject', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'rejectAbsenceRequest',
    idempotent: true,
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.reject(tenant, principal, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/cancel', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'cancelAbsenceRequest',
    idempotent: true,
    params: AbsenceRequestParams,
    run: ({ tenant, scope, params }) => moves.cancel(tenant, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/removal', {
    method: 'POST',
    status: 201,
    auth: CALLERS,
    operationId: 'requestAbsenceRemoval',
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.requestRemoval(tenant, principal, scope.actor, params.absence_request),
  });
}
