/**
 * Workforce: the time-tracking half of the product, under `/{pbx_id}/...` paths, in sub-domains,
 * each a folder with its own index.ts, table file and seed (README.md draws how they stand on each
 * other): the organisation (companies, departments, employees and their user link, settings), time
 * (contracts, work shifts, holidays, required work time), absences (absence and home-office
 * requests, absence types, recurring balance transactions) and scheduling (planning statuses,
 * schedules, planning entries); `shared/` holds the calendar days and route schemas they all use.
 * This file is the domain's face to the rest of the app: its routes, its seeders and what other
 * domains use.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { organisationRoutes } from './organisation/index.js';
import { timeRoutes } from './time/index.js';
import { absencesRoutes, approvedAbsenceSeconds } from './absences/index.js';
import { schedulingRoutes } from './scheduling/index.js';

/**
 * Each resource's routes, registered by modules/index.ts under the API prefix. Time's required work
 * time is handed the absences' ledger here, so time never imports absences (they stand on time).
 */
export const workforceRoutes: RoutePlugin[] = [...organisationRoutes, ...timeRoutes(approvedAbsenceSeconds), ...absencesRoutes, ...schedulingRoutes];

/** The demo seeders, which modules/index.ts runs in this order: each finds the rows of those before it. */
export { seedOrganisation } from './organisation/index.js';
export { seedWorkforceTime } from './time/index.js';
export { seedAbsences, seedRecurringTransactions } from './absences/index.js';
export { seedSchedules } from './scheduling/index.js';

// What other domains use.
/** The employee a user's `/me` shows (identity): its link, unless that employee is soft-deleted. */
export { liveEmployeeId } from './organisation/index.js';
/** Public holidays and the tenant's own (routing's time conditions close on them). */
export { publicHolidays, tenantHolidays } from './time/index.js';
