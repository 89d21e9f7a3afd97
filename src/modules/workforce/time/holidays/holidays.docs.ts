import type { OperationDocs } from '../../../../http/resource-routes.js';
import { MAX_CALENDAR_DAYS } from './holidays.service.js';

/** The OpenAPI text of holidays.routes.ts, by operation id. */
export const HOLIDAYS_DOCS = {
  listHolidays: {
    summary: "The tenant's own holidays (any user of the PBX may read them)",
    description:
      'Holidays the tenant adds to the public ones, for every company (company_id null) or one. filter[company_id] keeps those that apply to the company ' +
      '(its own and those for every company); search matches the name; sort by date (default) or name. ' +
      'filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
  },
  getHoliday: {
    summary: "One of the tenant's holidays",
    description: 'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted holiday is 404.',
  },
  createHoliday: {
    summary: 'Add a holiday (administrators, PBX API key)',
    description:
      'date, name; half_day halves the required work time of the day instead of clearing it; recurring repeats it every year on the same month and day from its date on ' +
      '(29 February only in leap years); company_id (a live company of the PBX, else 422) or null for every company.',
  },
  updateHoliday: {
    summary: 'Change a holiday (administrators, PBX API key)',
    description: 'Changes the fields sent.',
  },
  deleteHoliday: {
    summary: 'Soft-delete a holiday (administrators, PBX API key)',
    description: 'It stops counting as a day off; restorable.',
  },
  restoreHoliday: {
    summary: 'Restore a soft-deleted holiday (administrators, PBX API key)',
    description: '404 when it is not deleted.',
  },
  listPublicHolidays: {
    summary: "A company's days off over a range: public holidays and the tenant's own",
    description:
      "The public holidays of the company's country and region (date-holidays' `public` type: Germany's regional ones through the region, e.g. BY; Luxembourg's, Europe Day included), " +
      "plus the tenant's holidays for every company and for this one (recurring ones on each year's date), by date; a day can appear twice (public and tenant). " +
      `All three filters are required; the range spans at most ${MAX_CALENDAR_DAYS} days counting both ends, filter[to] not before filter[from], and a company that is not a live one of the PBX is 422. ` +
      'Any user of the PBX and the PBX API key may read it.',
  },
} satisfies OperationDocs;
