import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../platform/context.js';
import { DataEnvelope } from '../../../../http/schema.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { EmployeeParams } from '../../shared/index.js';
import { AbsenceRequestsService, type AbsenceRow } from '../absence-requests/absence-requests.service.js';
import { AbsenceRequest, EmployeeAbsenceListQuery } from '../absence-requests/absence-requests.schemas.js';
import { HOME_OFFICE_DOCS } from './home-office.docs.js';
import { HomeOfficeRequestsService } from './home-office-requests.service.js';
import { CalendarParams, CalendarQuery, HomeOfficeCalendarEntry, HomeOfficeRequestBody, InvalidDatesBody } from './home-office.schemas.js';

const CALLERS = { user: true, pbx: true } as const;

/** Home-office requests (rows of the absence ledger) and the company's home-office calendar. */
export async function homeOfficeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const requests = new HomeOfficeRequestsService(ctx);
  const absences = new AbsenceRequestsService(ctx);
  const homeOffice = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: home office'],
    docs: HOME_OFFICE_DOCS,
    schema: AbsenceRequest,
    present: (rows: AbsenceRow[], { call }) => absences.present(call.tenant, rows, false),
  });

  // One request answers every row it created (201), or the whole refusal with `invalid_dates` (422).
  homeOffice.route('/:pbx_id/user/:employee_id/home-office-requests', {
    method: 'POST',
    auth: CALLERS,
    operationId: 'requestHomeOffice',
    params: EmployeeParams,
    body: HomeOfficeRequestBody,
    response: { 201: DataEnvelope(Type.Array(Type.Ref(AbsenceRequest))), 422: InvalidDatesBody },
    handle: async ({ tenant, principal, params, body, reply }) => {
      const created = await requests.request(tenant, principal, params.employee_id, body);
      reply.code(201);
      return { data: await absences.present(tenant, created, true) };
    },
  });
  homeOffice.list('/:pbx_id/user/:employee_id/home-office-requests', {
    auth: CALLERS,
    operationId: 'listHomeOfficeRequests',
    params: EmployeeParams,
    querystring: EmployeeAbsenceListQuery,
    defaultSort: [{ field: 'start', direction: 'desc' }],
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      absences.listForEmployee(
        tenant,
        principal,
        params.employee_id,
        { status: query['filter[status]'], type: 'home_office', from: query['filter[from]'], to: query['filter[to]'] },
        sort,
        page,
      ),
  });

  // The calendar is a flat array of its own entries, not the ledger's rows.
  app.addSchema(HomeOfficeCalendarEntry);
  homeOffice.route('/:pbx_id/calendar/home-office', {
    method: 'GET',
    auth: { user: true },
    operationId: 'getHomeOfficeCalendar',
    params: CalendarParams,
    querystring: CalendarQuery,
    response: { 200: Type.Array(Type.Ref(HomeOfficeCalendarEntry)) },
    // The service writes the JSON text itself (home-office-calendar.ts): sent as it is, not serialized again.
    handle: async ({ tenant, principal, query, reply }) => {
      const json = await requests.calendar(tenant, principal, {
        departmentIds: query['filter[department_id]']?.split(','),
        from: query['filter[from]'],
        to: query['filter[to]'],
      });
      return reply.type('application/json').send(json);
    },
  });
}
