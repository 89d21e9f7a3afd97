import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import type { DayOff } from './holiday-calendar.js';
import { HOLIDAYS_DOCS } from './holidays.docs.js';
import { presentHoliday } from './holidays.presenter.js';
import { HolidaysService, type TenantHolidayRow } from './holidays.service.js';
import { CreateHolidayBody, HolidayListQuery, HolidayParams, PublicHoliday, PublicHolidayQuery, TenantHoliday, UpdateHolidayBody } from './holidays.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's own holidays, and the computed calendar of a company's days off. */
export async function holidayRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new HolidaysService(ctx);
  const group = { tags: ['Workforce: holidays'], docs: HOLIDAYS_DOCS };
  const holidays = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: TenantHoliday,
    present: (rows: TenantHolidayRow[]) => rows.map(presentHoliday),
  });

  holidays.list('/:pbx_id/holidays', {
    auth: READERS,
    operationId: 'listHolidays',
    params: PbxParams,
    querystring: HolidayListQuery,
    defaultSort: [{ field: 'date', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(
        tenant,
        principal,
        { search: query.search, companyId: query['filter[company_id]'], recurring: query['filter[recurring]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  holidays.read('/:pbx_id/holidays/:holiday', {
    auth: READERS,
    operationId: 'getHoliday',
    params: HolidayParams,
    load: ({ tenant, params }) => service.get(tenant, params.holiday),
  });
  holidays.create('/:pbx_id/holidays', {
    auth: MANAGERS,
    operationId: 'createHoliday',
    params: PbxParams,
    body: CreateHolidayBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  holidays.update('/:pbx_id/holidays/:holiday', {
    auth: MANAGERS,
    operationId: 'updateHoliday',
    params: HolidayParams,
    body: UpdateHolidayBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.holiday, body),
  });
  holidays.delete('/:pbx_id/holidays/:holiday', {
    auth: MANAGERS,
    operationId: 'deleteHoliday',
    params: HolidayParams,
    run: ({ tenant, params }) => service.remove(tenant, params.holiday),
  });
  holidays.restore('/:pbx_id/holidays/:holiday/restore', {
    auth: MANAGERS,
    operationId: 'restoreHoliday',
    params: HolidayParams,
    run: ({ tenant, params }) => service.restore(tenant, params.holiday),
  });

  const calendar = resourceRoutes(app, ctx.config.baseUrl, {
    ...group,
    schema: PublicHoliday,
    present: (days: DayOff[]) => days,
  });
  calendar.all('/:pbx_id/public-holidays', {
    auth: READERS,
    operationId: 'listPublicHolidays',
    params: PbxParams,
    querystring: PublicHolidayQuery,
    fetch: ({ tenant, query }) => service.calendar(tenant, query['filter[company_id]'], query['filter[from]'], query['filter[to]']),
  });
}
