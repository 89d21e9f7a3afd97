import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import type { DayOff } from './holiday-calendar.js';
import { HolidaysService, MAX_CALENDAR_DAYS, presentHoliday, type TenantHolidayRow } from './holidays.service.js';
import { CreateHolidayBody, HolidayListQuery, HolidayParams, PublicHoliday, PublicHolidayQuery, TenantHoliday, UpdateHolidayBody } from './holidays.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's own holidays, and the computed calendar of a company's days off. */
export async function holidayRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new HolidaysService(ctx);
  const holidays = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: holidays'],
    schema: TenantHoliday,
    present: (rows: TenantHolidayRow[]) => rows.map(presentHoliday),
  });

  holidays.list('/:pbx_id/holidays', {
    auth: READERS,
    operationId: 'listHolidays',
    summary: "The tenant's own holidays (any user of the PBX may read them)",
    description:
      'Holidays the tenant adds to the public ones, for every company (company_id null) or one. filter[company_id] keeps those that apply to the company ' +
      '(its own and those for every company); search matches the name; sort by date (default) or name. ' +
      'filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
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
    summary: "One of the tenant's holidays",
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted holiday is 404.',
    params: HolidayParams,
    load: ({ tenant, params }) => service.get(tenant, params.holiday),
  });
  holidays.create('/:pbx_id/holidays', {
    auth: MANAGERS,
    operationId: 'createHoliday',
    summary: 'Add a holiday (administrators, PBX API key)',
    description:
      'date, name; half_day halves the required work time of the day instead of clearing it; recurring repeats it every year on the same month and day from its date on ' +
      '(29 February only in leap years); company_id (a live company of the PBX, else 422) or null for every company.',
    params: PbxParams,
    body: CreateHolidayBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  holidays.update('/:pbx_id/holidays/:holiday', {
    auth: MANAGERS,
    operationId: 'updateHoliday',
    summary: 'Change a holiday (administrators, PBX API key)',
    description: 'Changes the fields sent.',
    params: HolidayParams,
    body: UpdateHolidayBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.holiday, body),
  });
  holidays.delete('/:pbx_id/holidays/:holiday', {
    auth: MANAGERS,
    operationId: 'deleteHoliday',
    summary: 'Soft-delete a holiday (administrators, PBX API key)',
    description: 'It stops counting as a day off; restorable.',
    params: HolidayParams,
    run: ({ tenant, params }) => service.remove(tenant, params.holiday),
  });
  holidays.restore('/:pbx_id/holidays/:holiday/restore', {
    auth: MANAGERS,
    operationId: 'restoreHoliday',
    summary: 'Restore a soft-deleted holiday (administrators, PBX API key)',
    description: '404 when it is not deleted.',
    params: HolidayParams,
    run: ({ tenant, params }) => service.restore(tenant, params.holiday),
  });

  const calendar = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: holidays'],
    schema: PublicHoliday,
    present: (days: DayOff[]) => days,
  });
  calendar.all('/:pbx_id/public-holidays', {
    auth: READERS,
    operationId: 'listPublicHolidays',
    summary: "A company's days off over a range: public holidays and the tenant's own",
    description:
      "The public holidays of the company's country and region (date-holidays' `public` type: Germany's regional ones through the region, e.g. BY; Luxembourg's, Europe Day included), " +
      "plus the tenant's holidays for every company and for this one (recurring ones on each year's date), by date; a day can appear twice (public and tenant). " +
      `All three filters are required; the range spans at most ${MAX_CALENDAR_DAYS} days counting both ends, filter[to] not before filter[from], and a company that is not a live one of the PBX is 422. ` +
      'Any user of the PBX and the PBX API key may read it.',
    params: PbxParams,
    querystring: PublicHolidayQuery,
    fetch: ({ tenant, query }) => service.calendar(tenant, query['filter[company_id]'], query['filter[from]'], query['filter[to]']),
  });
}
