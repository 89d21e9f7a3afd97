import type { OperationDocs } from '../../../../http/resource-routes.js';

/** The OpenAPI text of next-availability.routes.ts, by operation id. */
export const NEXT_AVAILABILITY_DOCS = {
  getNextAvailability: {
    summary: 'When an employee is next at work, from today',
    description:
      'The tenant is the caller\u2019s (no pbx_id in this path). Anchored at the tenant\u2019s today: the first day, today included, with more than 15 minutes of the employee\u2019s ' +
      'scheduled day left once its accepted absences (including those with a removal pending; home office is work) are counted; pending requests are ignored. ' +
      '`employee_id` echoes the path. A team view: any user with an employee record in the PBX, administrators and the PBX key may ask about any employee of it; ' +
      'a user without an employee record is 403; an unknown or deleted employee (or another tenant\u2019s) 404.',
  },
} satisfies OperationDocs;
