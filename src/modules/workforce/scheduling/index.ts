/**
 * The workforce's shift scheduling: the tenant's planning statuses and their sub-statuses,
 * schedules with their scope (companies, departments or employees), the pool each may assign and
 * their planning entries. It stands on the organisation and on time (who has a contract active
 * today); nothing else in the workforce uses it.
 */
import type { RoutePlugin } from '../../../platform/context.js';
import { planningStatusRoutes } from './planning-statuses/planning-statuses.routes.js';
import { scheduleRoutes } from './schedules/schedules.routes.js';

export const schedulingRoutes: RoutePlugin[] = [planningStatusRoutes, scheduleRoutes];
export { seedSchedules } from './scheduling.seed.js';
