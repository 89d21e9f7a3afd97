import type { FastifyInstance } from 'fastify';
import { resourceRoutes, type ResourceCall } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { EmployeeParams, PbxParams } from '../../shared/index.js';
import type { AbsenceRow, LoadedAbsence } from './absence-requests.queries.js';
import { AbsenceMovesService } from './absence-moves.service.js';
import { AbsenceRequestsService, type AbsenceCaller } from './absence-requests.service.js';
import {
  AbsenceListQuery,
  AbsenceRequest,
  AbsenceRequestParams,
  CreateAbsenceBody,
  EmployeeAbsenceListQuery,
  MAX_PERIOD_DAYS,
} from './absence-requests.schemas.js';

/** User tokens (the employee itself, its validators, administrators) and the PBX API key. */
const CALLERS = { user: true, pbx: true } as const;
const DEFAULT_SORT = [{ field: 'start', direction: 'desc' as const }];
const LIST_RULES =
  '`filter[status]` and `filter[type]` take comma-separated contract spellings; `filter[from]`/`filter[to]` keep rows overlapping the range (filter[to] before filter[from] is 422). ' +
  '`sort`: `start`, `created` (`-` descending; default `-start`). `include=next_availability` adds each row\u2019s next availability (a few queries a row).';
const MOVE_RULES =
  'The caller must see the request (its employee, one of its validators, an administrator or the PBX key), else 404. A move the row\u2019s status does not allow is 422 on `status` with the reason.';

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
    summary: "An employee's absence and home-office requests (paginated)",
    description:
      'Readable by the employee itself, by administrators of the PBX and by the PBX API key; any other user is 403, an unknown employee 404 for those who may ask. ' +
      'Removal rows (sub_type removal) are listed beside the requests they take back. ' +
      LIST_RULES,
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
    summary: 'Ask for a legal absence, illness, special leave or time off against overtime',
    description:
      'By the employee itself, or by an administrator or the PBX key for any employee. The row starts pending; its amounts are computed now, against the employee\u2019s own day ' +
      '(its work-shift assignment, contract and company holidays): requested_time holds the working days only, working_days counts each as its share of a full day. ' +
      'starts_half_day takes the second half of the first day, ends_half_day the first half of the last; on a single day either flag makes one half day (both flags true). ' +
      'start_time/end_time (HH:MM) apply to half-day sides only, default the tenant\u2019s half_day_split. ' +
      'Validators are snapshotted: those named by the department of the contract governing the first working day (the employee itself left out), else one entry for any administrator. ' +
      `422: end before start; more than ${MAX_PERIOD_DAYS} days; no working day in the period; a working day already held by another pending or accepted row of the employee ` +
      '(the message names it); type home_office (use the home-office request).',
    params: EmployeeParams,
    body: CreateAbsenceBody,
    run: ({ tenant, principal, scope, params, body }) => service.create(tenant, principal, scope.actor, params.employee_id, body),
  });
  listed.list('/:pbx_id/absence-requests', {
    auth: CALLERS,
    operationId: 'listAbsenceRequests',
    summary: 'Absence requests across the PBX: for validators and administrators (paginated)',
    description:
      'Administrators and the PBX key see every row; any other user its own and those it is a validator of (403 without an employee record). ' +
      '`filter[employee_id]` narrows to one employee; `filter[awaiting_me]` (true/1) keeps pending rows with an entry still pending for the caller ' +
      '(its own entry; for administrators and the PBX key, who decide every pending entry, every pending row). ' +
      LIST_RULES,
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
    summary: 'One absence request, with its next availability',
    description: 'Readable by its employee, its validators, administrators and the PBX key; anyone else and another tenant\u2019s row: 404.',
    params: AbsenceRequestParams,
    load: ({ tenant, scope, params }) => service.get(tenant, scope.actor, params.absence_request),
  });

  // Each move answers the row it wrote, with its validator entries: nothing is read again to present it.
  single.action('/:pbx_id/absence-requests/:absence_request/approve', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'approveAbsenceRequest',
    summary: 'Accept a pending request (a validator its entry; an administrator every pending entry)',
    description:
      'A validator accepts its own entry; an administrator or the PBX key accepts every entry still pending. The request is accepted when every entry is: a legal absence then ' +
      'debits the contract\u2019s leave_balance by working_days, a home-office day its ho_balance (when tracked, not null), time off against overtime its compensatory_balance by total_seconds. ' +
      'Accepting a removal row removes the request it takes back and credits that back. 403: the employee deciding its own request. 422: not pending, or the caller\u2019s entry already decided. ' +
      MOVE_RULES,
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.approve(tenant, principal, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/reject', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'rejectAbsenceRequest',
    summary: 'Reject a pending request (one rejection rejects it)',
    description:
      'Rejecting a removal row leaves the request it would have taken back accepted. 403: the employee deciding its own request. 422: not pending, or the caller\u2019s entry already decided. ' +
      MOVE_RULES,
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.reject(tenant, principal, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/cancel', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'cancelAbsenceRequest',
    summary: 'Withdraw a pending request (the employee or an administrator)',
    description:
      'A pending row becomes canceled; a canceled removal row leaves its request accepted. An accepted request is taken back with a removal instead. 403: a validator. 422: not pending. ' +
      MOVE_RULES,
    params: AbsenceRequestParams,
    run: ({ tenant, scope, params }) => moves.cancel(tenant, scope.actor, params.absence_request),
  });
  single.action('/:pbx_id/absence-requests/:absence_request/removal', {
    method: 'POST',
    status: 201,
    auth: CALLERS,
    operationId: 'requestAbsenceRemoval',
    summary: 'Ask to take an accepted request back: answers the removal row (201)',
    description:
      'The request becomes pending_removal (it still counts as away) and a removal row (sub_type removal, same type and amounts, removal_of_id = the request) is created pending, ' +
      'decided by the validators the request\u2019s department names now. Its next_availability reads the request as taken back (possibly in the past). ' +
      '403: a validator. 422: not accepted (a pending one is canceled instead), a removal already pending (named), or a removal row itself. ' +
      MOVE_RULES,
    params: AbsenceRequestParams,
    run: ({ tenant, principal, scope, params }) => moves.requestRemoval(tenant, principal, scope.actor, params.absence_request),
  });
}
