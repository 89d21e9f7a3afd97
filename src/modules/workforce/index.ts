/**
 * Workforce: the time-tracking half of the product, under `/{pbx_id}/...` paths: the organisation
 * (companies, departments, employees, each linked to at most one user, the user's `employee_id`,
 * and the tenant's workforce settings) and the time side (employee-company contracts, the
 * contract's user companies; work shifts and their assignments; the tenant's holidays and the
 * public holiday calendar; required work time).
 */
import type { RoutePlugin } from '../../platform/context.js';
import { organisationRoutes } from './organisation/index.js';
import { timeRoutes } from './time/index.js';
import { absencesRoutes, approvedAbsenceSeconds } from './absences/index.js';
import { planningStatusRoutes } from './planning-statuses/planning-statuses.routes.js';
import { scheduleRoutes } from './schedules/schedules.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const workforceRoutes: RoutePlugin[] = [
  ...organisationRoutes,
  ...timeRoutes(approvedAbsenceSeconds),
  ...absencesRoutes,
  planningStatusRoutes,
  scheduleRoutes,
];

export { seedOrganisation } from './organisation/index.js';
export { seedWorkforceTime } from './time/index.js';
export { seedAbsences, seedRecurringTransactions } from './absences/index.js';
export { seedSchedules } from './schedules/schedules.seed.js';

// What other domains use.
/** The employee a user's `/me` shows (identity): its link, unless that employee is soft-deleted. */
export { liveEmployeeId } from './organisation/index.js';
/** Public holidays and the tenant's own (routing's time conditions close on them). */
export { publicHolidays, tenantHolidays } from './time/index.js';
