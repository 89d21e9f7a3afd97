import type { OperationDocs } from '../../../../http/resource-routes.js';
import { MAX_PERIOD_DAYS } from './absence-requests.schemas.js';

/** What both lists of absence requests accept. */
const LIST_RULES =
  '`filter[status]` and `filter[type]` take comma-separated contract spellings; `filter[from]`/`filter[to]` keep rows overlapping the range (filter[to] before filter[from] is 422). ' +
  '`sort`: `start`, `created` (`-` descending; default `-start`). `include=next_availability` adds each row\u2019s next availability (a few queries a row).';
/** What every move (approve, reject, cancel, removal) shares. */
const MOVE_RULES =
  'The caller must see the request (its employee, one of its validators, an administrator or the PBX key), else 404. A move the row\u2019s status does not allow is 422 on `status` with the reason.';

/** The OpenAPI text of absence-requests.routes.ts, by operation id. */
export const ABSENCE_REQUESTS_DOCS = {
  listEmployeeAbsenceRequests: {
    summary: "An employee's absence and home-office requests (paginated)",
    description:
      'Readable by the employee itself, by administrators of the PBX and by the PBX API key; any other user is 403, an unknown employee 404 for those who may ask. ' +
      'Removal rows (sub_type removal) are listed beside the requests they take back. ' +
      LIST_RULES,
  },
  createAbsenceRequest: {
    summary: 'Ask for a legal absence, illness, special leave or time off against overtime',
    description:
      'By the employee itself, or by an administrator or the PBX key for any employee. The row starts pending; its amounts are computed now, against the employee\u2019s own day ' +
      '(its work-shift assignment, contract and company holidays): requested_time holds the working days only, working_days counts each as its share of a full day. ' +
      'starts_half_day takes the second half of the first day, ends_half_day the first half of the last; on a single day either flag makes one half day (both flags true). ' +
      'start_time/end_time (HH:MM) apply to half-day sides only, default the tenant\u2019s half_day_split. ' +
      'Validators are snapshotted: those named by the department of the contract governing the first working day (the employee itself left out), else one entry for any administrator. ' +
      `422: end before start; more than ${MAX_PERIOD_DAYS} days; no working day in the period; a working day already held by another pending or accepted row of the employee ` +
      '(the message names it); type home_office (use the home-office request).',
  },
  listAbsenceRequests: {
    summary: 'Absence requests across the PBX: for validators and administrators (paginated)',
    description:
      'Administrators and the PBX key see every row; any other user its own and those it is a validator of (403 without an employee record). ' +
      '`filter[employee_id]` narrows to one employee; `filter[awaiting_me]` (true/1) keeps pending rows with an entry still pending for the caller ' +
      '(its own entry; for administrators and the PBX key, who decide every pending entry, every pending row). ' +
      LIST_RULES,
  },
  getAbsenceRequest: {
    summary: 'One absence request, with its next availability',
    description: 'Readable by its employee, its validators, administrators and the PBX key; anyone else and another tenant\u2019s row: 404.',
  },
  approveAbsenceRequest: {
    summary: 'Accept a pending request (a validator its entry; an administrator every pending entry)',
    description:
      'A validator accepts its own entry; an administrator or the PBX key accepts every entry still pending. The request is accepted when every entry is: a legal absence then ' +
      'debits the contract\u2019s leave_balance by working_days, a home-office day its ho_balance (when tracked, not null), time off against overtime its compensatory_balance by total_seconds. ' +
      'Accepting a removal row removes the request it takes back and credits that back. 403: the employee deciding its own request. 422: not pending, or the caller\u2019s entry already decided. ' +
      MOVE_RULES,
  },
  rejectAbsenceRequest: {
    summary: 'Reject a pending request (one rejection rejects it)',
    description:
      'Rejecting a removal row leaves the request it would have taken back accepted. 403: the employee deciding its own request. 422: not pending, or the caller\u2019s entry already decided. ' +
      MOVE_RULES,
  },
  cancelAbsenceRequest: {
    summary: 'Withdraw a pending request (the employee or an administrator)',
    description:
      'A pending row becomes canceled; a canceled removal row leaves its request accepted. An accepted request is taken back with a removal instead. 403: a validator. 422: not pending. ' +
      MOVE_RULES,
  },
  requestAbsenceRemoval: {
    summary: 'Ask to take an accepted request back: answers the removal row (201)',
    description:
      'The request becomes pending_removal (it still counts as away) and a removal row (sub_type removal, same type and amounts, removal_of_id = the request) is created pending, ' +
      'decided by the validators the request\u2019s department names now. Its next_availability reads the request as taken back (possibly in the past). ' +
      '403: a validator. 422: not accepted (a pending one is canceled instead), a removal already pending (named), or a removal row itself. ' +
      MOVE_RULES,
  },
} satisfies OperationDocs;
