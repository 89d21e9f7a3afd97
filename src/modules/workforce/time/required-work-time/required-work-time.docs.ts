import type { OperationDocs } from '../../../../http/resource-routes.js';
import { MAX_REQUIRED_WORK_TIME_DAYS } from './required-work-time.schemas.js';

/** The OpenAPI text of required-work-time.routes.ts, by operation id. */
export const REQUIRED_WORK_TIME_DOCS = {
  getRequiredWorkTime: {
    summary: 'Contracted work time per calendar day (the employee itself only)',
    description:
      'A flat object (no `data` envelope) with every day from filter[from] through filter[to]: 0 outside every contract of the employee; else the seconds of the work-shift assignment ' +
      "covering the day for its ISO weekday (0 with none); a public or tenant holiday of the contract's company (with parallel contracts the stored main one, else the earliest started) " +
      'makes it 0, or half (rounded down to whole seconds) for a half-day holiday; approved absences are then subtracted, never below 0. ' +
      `Both bounds are required (422 otherwise); the range spans at most ${MAX_REQUIRED_WORK_TIME_DAYS} days counting both ends, and filter[to] before filter[from] is 422. ` +
      'Only a user token whose user is linked to this employee (users.employee_id) may ask: any other employee (administrators included), a user without an employee record, ' +
      'an unknown employee id (no existence oracle), another PBX and API keys are 403.',
  },
} satisfies OperationDocs;
