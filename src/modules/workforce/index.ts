/**
 * Workforce: the time side (issue #13, half B): employee-company contracts (the contract's user
 * companies), work shifts and their assignments, the tenant's holidays and the public holiday
 * calendar, and required work time. Every path names its PBX (`/{pbx_id}/...`).
 */
import type { RoutePlugin } from '../../platform/context.js';
import { contractRoutes } from './contracts/contracts.routes.js';
import { workShiftRoutes } from './work-shifts/work-shifts.routes.js';
import { workShiftAssignmentRoutes } from './work-shifts/work-shift-assignments.routes.js';
import { holidayRoutes } from './holidays/holidays.routes.js';
import { requiredWorkTimeRoutes } from './required-work-time/required-work-time.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const workforceRoutes: RoutePlugin[] = [contractRoutes, workShiftRoutes, workShiftAssignmentRoutes, holidayRoutes, requiredWorkTimeRoutes];

export { seedWorkforceTime } from './time.seed.js';
