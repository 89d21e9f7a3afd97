import type { OperationDocs } from '../../../../http/resource-routes.js';

/** Every route's first sentence (who may call) and its 404. */
const AUTH = 'PBX API key only: user tokens (administrators included) and every other key get 403 {message}. The PBX is the key\u2019s.';
const NOT_FOUND = "Another PBX's template, a deleted one or an unknown id is 404.";

/** The OpenAPI text of recurring-transactions.routes.ts, by operation id. */
export const RECURRING_TRANSACTIONS_DOCS = {
  listRecurringTransactions: {
    summary: 'The PBX\u2019s recurring transactions',
    description: `${AUTH} Live templates, paginated; filter[employee_id], filter[status]; sort by created_at (default) or next_run_at.`,
  },
  getRecurringTransaction: {
    summary: 'One recurring transaction',
    description: `${AUTH} The recurring transaction object, flat. ${NOT_FOUND}`,
  },
  createRecurringTransaction: {
    summary: 'Create a recurring transaction template',
    description:
      `${AUTH} pbx_id is never accepted in the body (422). ` +
      'employee_id: a live employee of the PBX with a contract covering a run (422 otherwise, see below). ' +
      'type: legal (amount in days, the contract\u2019s leave_balance), home_office (days, ho_balance; a run on a contract whose ho_balance is null fails the template) ' +
      'or overtime_balance (amount in hours, compensatory_balance in seconds: a run books round(amount \u00d7 3600) s); any other type is 422. ' +
      'absence_type_id: a live absence type of the PBX of the same type (422 otherwise). amount > 0 and at most 10000 in the template\u2019s unit (the bound is this API\u2019s, ' +
      'see the body schema); note 0-65535 characters. ' +
      'The template is active at once; next_run_at is the next start of a month (monthly_start) or of a year (yearly_start) after now, local midnight in the PBX\u2019s time zone, as UTC, ' +
      'on a day a contract of the employee covers: for a contract that starts later, the first such start on or after its first day (never before it); ' +
      'no contract covering any period start from now on is 422 on employee_id. ' +
      'Each run writes one accepted ledger row (an absence request dated the run\u2019s day, sub_type the template\u2019s or `recurring`) that takes no time ' +
      '(requested_time {}, total_seconds and working_days 0): its signed amount is its adjustment object (working_days for legal and home_office, seconds for overtime_balance) ' +
      'and changes the balance of the contract covering that day; a run that cannot apply (employee deleted, no contract that day, untracked home-office balance) ' +
      'sets status failed with failure_reason. created_by_user_id is null. 201: the recurring transaction object, flat.',
  },
  updateRecurringTransaction: {
    summary: 'Change a recurring transaction template',
    description:
      `${AUTH} Only amount (> 0), tr_type, note (0-65535), frequency and run_once change; employee_id, type, sub_type, absence_type_id and pbx_id are fixed at creation, ` +
      'and sending them (or any other field) is 422 naming the field. The body is optional: an empty one changes nothing. ' +
      'A new frequency on an active template recomputes next_run_at from now, on a contract\u2019s day as on creation (a paused or failed one gets it when resumed). ' +
      'A completed template cannot be changed (422). ' +
      `${NOT_FOUND} 200: the recurring transaction object, flat.`,
  },
  pauseRecurringTransaction: {
    summary: 'Pause a recurring transaction',
    description: `${AUTH} active -> paused: no run until resumed (next_run_at null). Any other status is 422 on status. ${NOT_FOUND}`,
  },
  resumeRecurringTransaction: {
    summary: 'Resume a paused or failed recurring transaction',
    description:
      `${AUTH} paused or failed -> active, failure_reason cleared, next_run_at the next period start after now on a day a contract of the employee covers ` +
      '(as on creation): periods missed meanwhile are not made up. No contract covering any period start from now on is 422 on employee_id. ' +
      `Active or completed is 422 on status. ${NOT_FOUND}`,
  },
  deleteRecurringTransaction: {
    summary: 'Delete a recurring transaction (soft)',
    description: `${AUTH} It never runs again; the ledger rows its runs wrote stay. ${NOT_FOUND}`,
  },
} satisfies OperationDocs;
