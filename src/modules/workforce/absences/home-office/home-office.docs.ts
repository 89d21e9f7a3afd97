import type { OperationDocs } from '../../../../http/resource-routes.js';
import { HOME_OFFICE_COMMENT_LENGTH, MAX_HOME_OFFICE_DATES } from './home-office.schemas.js';

/** The OpenAPI text of home-office.routes.ts, by operation id. */
export const HOME_OFFICE_DOCS = {
  requestHomeOffice: {
    summary: 'Request home-office days for an employee: one pending row per date (201)',
    description:
      'By the employee itself, or by an administrator or the PBX key for any employee (any other user: 403; unknown employee: 404). ' +
      `dates: 1-${MAX_HOME_OFFICE_DATES} days, each today or later (the tenant\u2019s today) and within six months of it, unique; comment (0-${HOME_OFFICE_COMMENT_LENGTH}) is copied to every row. ` +
      'Tenant, owner, requester, type, status and amounts are the server\u2019s: sending them is 422. Each date becomes its own pending home_office row costing the employee\u2019s own day ' +
      '(28800 seconds on an 8 h day, working_days 1; a half-day holiday makes it half); all rows share one request_group_id and get their validators like any request. ' +
      'Accepting a row debits the contract\u2019s ho_balance by its working_days when the balance is tracked (not null). ' +
      'A date that is a holiday, outside every contract, not a working day, already booked as home office or overlapping an absence refuses the whole request: ' +
      '422 with `invalid_dates` (date -> reason and message) beside `message` and `errors.dates`; nothing is created.',
  },
  listHomeOfficeRequests: {
    summary: "An employee's home-office rows (paginated)",
    description:
      'The absence requests of type home_office (filter[type] is ignored here), with the same readers and filters as the employee\u2019s absence requests; moves are the absence requests\u2019 ones.',
  },
  getHomeOfficeCalendar: {
    summary: 'The company home-office calendar (a flat array, no pagination)',
    description:
      'Readable by any employee of the caller\u2019s company: the caller\u2019s companies are those of its contracts active today, and the calendar shows the home-office rows of every ' +
      'employee whose contract active today is with one of them (not limited to the caller\u2019s own rows). Only pending, approved and pending_removal rows; a row being taken back ' +
      'appears once, as pending_removal, and its removal row is omitted. Statuses are the stored spellings (approved). Sorted by day, then employee. ' +
      '403: another tenant, a caller without an employee record or without an active company (API keys have no employee record). 422: bad filters, filter[to] before filter[from].',
  },
} satisfies OperationDocs;
