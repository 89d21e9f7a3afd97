import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { DataEnvelope } from '../../../../http/schema.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { PlanningEntriesService, type PlanningEntryRow } from './planning-entries.service.js';
import { SCHEDULES_DOCS } from './schedules.docs.js';
import {
  AssignableEmployee,
  CreateEntryBody,
  CreateScheduleBody,
  EntryParams,
  PlanningEntry,
  PlanningWeek,
  PlanningWeekQuery,
  Schedule,
  ScheduleListQuery,
  ScheduleParams,
  UpdateEntryBody,
  UpdateScheduleBody,
  type AssignableEmployeeView,
} from './schedules.schemas.js';
import { SchedulesService, type ScheduleRow } from './schedules.service.js';

/** Any user token of the PBX and the PBX key read; administrators and the PBX key manage. */
const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** Shift schedules (schedule management), their assignable employees, and their planning entries. */
export async function scheduleRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SchedulesService(ctx);
  const entries = new PlanningEntriesService(ctx);
  const group = { tags: ['Workforce: schedules and planning'], docs: SCHEDULES_DOCS };
  const schedules = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: Schedule,
    present: (rows: ScheduleRow[], { call }) => service.present(call.tenant, rows),
  });
  const pool = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: AssignableEmployee,
    present: (rows: AssignableEmployeeView[]) => rows,
  });
  const planning = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: PlanningEntry,
    present: (rows: PlanningEntryRow[], { call }) => entries.present(call.tenant, rows),
  });

  schedules.list('/:pbx_id/schedule-management', {
    auth: READERS,
    operationId: 'listSchedules',
    params: PbxParams,
    querystring: ScheduleListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, isActive: query['filter[isActive]'] }, sort, page),
  });
  schedules.read('/:pbx_id/schedule-management/:schedule', {
    auth: READERS,
    operationId: 'getSchedule',
    params: ScheduleParams,
    envelope: 'flat',
    load: ({ tenant, params }) => service.get(tenant, params.schedule),
  });
  schedules.create('/:pbx_id/schedule-management', {
    auth: MANAGERS,
    operationId: 'createSchedule',
    params: PbxParams,
    body: CreateScheduleBody,
    envelope: 'flat',
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  schedules.update('/:pbx_id/schedule-management/:schedule', {
    auth: MANAGERS,
    operationId: 'updateSchedule',
    params: ScheduleParams,
    body: UpdateScheduleBody,
    envelope: 'flat',
    run: ({ tenant, params, body }) => service.update(tenant, params.schedule, body),
  });
  schedules.delete('/:pbx_id/schedule-management/:schedule', {
    auth: MANAGERS,
    operationId: 'deleteSchedule',
    params: ScheduleParams,
    run: ({ tenant, params }) => service.remove(tenant, params.schedule),
  });
  pool.all('/:pbx_id/schedule-management/:schedule/employees', {
    auth: READERS,
    operationId: 'listScheduleEmployees',
    params: ScheduleParams,
    fetch: async ({ tenant, params }) => service.assignable(tenant, await service.get(tenant, params.schedule)),
  });

  // The week grid answers its own shape (days and their slots with the entries in them), not a schedule.
  schedules.route('/:pbx_id/schedule-management/:schedule/planning', {
    method: 'GET',
    auth: READERS,
    operationId: 'getSchedulePlanning',
    params: ScheduleParams,
    querystring: PlanningWeekQuery,
    response: { 200: DataEnvelope(PlanningWeek) },
    handle: async ({ tenant, params, query }) => ({ data: await entries.week(tenant, params.schedule, query.week) }),
  });
  planning.create('/:pbx_id/schedule-management/:schedule/entries', {
    auth: MANAGERS,
    operationId: 'createPlanningEntry',
    params: ScheduleParams,
    body: CreateEntryBody,
    run: ({ tenant, params, body }) => entries.book(tenant, params.schedule, body),
  });
  planning.read('/:pbx_id/schedule-management/:schedule/entries/:entry', {
    auth: READERS,
    operationId: 'getPlanningEntry',
    params: EntryParams,
    load: ({ tenant, params }) => entries.get(tenant, params.schedule, params.entry),
  });
  planning.update('/:pbx_id/schedule-management/:schedule/entries/:entry', {
    auth: MANAGERS,
    operationId: 'updatePlanningEntry',
    params: EntryParams,
    body: UpdateEntryBody,
    run: ({ tenant, params, body }) => entries.update(tenant, params.schedule, params.entry, body),
  });
  planning.delete('/:pbx_id/schedule-management/:schedule/entries/:entry', {
    auth: MANAGERS,
    operationId: 'deletePlanningEntry',
    params: EntryParams,
    run: ({ tenant, params }) => entries.unbook(tenant, params.schedule, params.entry),
  });
}
