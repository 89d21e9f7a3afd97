import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../../../platform/auth/auth-plugin.js';
import type { AppContext } from '../../../../platform/context.js';
import { tenantInPath } from '../../../../platform/tenancy.js';
import { DataEnvelope } from '../../../../http/schema.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { EmployeeParams } from '../../shared/index.js';
import { tenantToday } from '../../organisation/index.js';
import { AbsenceRequestsService } from '../absence-requests/absence-requests.service.js';
import { AbsenceRequest, EmployeeAbsenceListQuery } from '../absence-requests/absence-requests.schemas.js';
import type { AbsenceRow } from '../absence-requests/absence-requests.queries.js';
import { homeOfficeCalendar } from './home-office-calendar.js';
import { HomeOfficeRequestsService } from './home-office-requests.service.js';
import {
  CalendarParams,
  CalendarQuery,
  HOME_OFFICE_COMMENT_LENGTH,
  HomeOfficeCalendarEntry,
  HomeOfficeRequestBody,
  InvalidDatesBody,
  MAX_HOME_OFFICE_DATES,
} from './home-office.schemas.js';

/** Home-office requests (rows of the absence ledger) and the company's home-office calendar. */
export async function homeOfficeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const requests = new HomeOfficeRequestsService(ctx);
  const absences = new AbsenceRequestsService(ctx);
  if (!app.getSchema('AbsenceRequest')) app.addSchema(AbsenceRequest);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post('/:pbx_id/user/:employee_id/home-office-requests', {
    config: { auth: { user: true, pbx: true } },
    schema: {
      tags: ['Workforce: home office'],
      operationId: 'requestHomeOffice',
      summary: 'Request home-office days for an employee: one pending row per date (201)',
      description:
        'By the employee itself, or by an administrator or the PBX key for any employee (any other user: 403; unknown employee: 404). ' +
        `dates: 1-${MAX_HOME_OFFICE_DATES} days, each today or later (the tenant\u2019s today) and within six months of it, unique; comment (0-${HOME_OFFICE_COMMENT_LENGTH}) is copied to every row. ` +
        'Tenant, owner, requester, type, status and amounts are the server\u2019s: sending them is 422. Each date becomes its own pending home_office row costing the employee\u2019s own day ' +
        '(28800 seconds on an 8 h day, working_days 1; a half-day holiday makes it half); all rows share one request_group_id and get their validators like any request. ' +
        'Accepting a row debits the contract\u2019s ho_balance by its working_days when the balance is tracked (not null). ' +
        'A date that is a holiday, outside every contract, not a working day, already booked as home office or overlapping an absence refuses the whole request: ' +
        '422 with `invalid_dates` (date -> reason and message) beside `message` and `errors.dates`; nothing is created.',
      params: EmployeeParams,
      body: HomeOfficeRequestBody,
      response: { 201: DataEnvelope(Type.Array(Type.Ref(AbsenceRequest))), 422: InvalidDatesBody },
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const tenant = tenantInPath(principal, request.params.pbx_id);
      const rows = await requests.request(tenant, principal, request.params.employee_id, request.body);
      reply.code(201);
      return { data: await absences.present(tenant, rows, true) };
    },
  });

  resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: home office'],
    schema: AbsenceRequest,
    present: (rows: AbsenceRow[], { call }) => absences.present(call.tenant, rows, false),
  }).list('/:pbx_id/user/:employee_id/home-office-requests', {
    auth: { user: true, pbx: true },
    operationId: 'listHomeOfficeRequests',
    summary: "An employee's home-office rows (paginated)",
    description:
      'The absence requests of type home_office (filter[type] is ignored here), with the same readers and filters as the employee\u2019s absence requests; moves are the absence requests\u2019 ones.',
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

  app.addSchema(HomeOfficeCalendarEntry);
  typed.get('/:pbx_id/calendar/home-office', {
    config: { auth: { user: true } },
    schema: {
      tags: ['Workforce: home office'],
      operationId: 'getHomeOfficeCalendar',
      summary: 'The company home-office calendar (a flat array, no pagination)',
      description:
        'Readable by any employee of the caller\u2019s company: the caller\u2019s companies are those of its contracts active today, and the calendar shows the home-office rows of every ' +
        'employee whose contract active today is with one of them (not limited to the caller\u2019s own rows). Only pending, approved and pending_removal rows; a row being taken back ' +
        'appears once, as pending_removal, and its removal row is omitted. Statuses are the stored spellings (approved). Sorted by day, then employee. ' +
        '403: another tenant, a caller without an employee record or without an active company (API keys have no employee record). 422: bad filters, filter[to] before filter[from].',
      params: CalendarParams,
      querystring: CalendarQuery,
      response: { 200: Type.Array(Type.Ref(HomeOfficeCalendarEntry)) },
    },
    handler: async (request) => {
      const principal = principalOf(request);
      const tenant = tenantInPath(principal, request.params.pbx_id);
      const query = request.query;
      return homeOfficeCalendar(ctx.db, tenant, principal, await tenantToday(ctx, tenant), {
        departmentIds: query['filter[department_id]']?.split(','),
        from: query['filter[from]'],
        to: query['filter[to]'],
      });
    },
  });
}
