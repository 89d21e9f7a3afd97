/**
 * Workforce: the time-tracking half of the product, under `/{pbx_id}/...` paths. So far the
 * organisation: companies, departments, employees (each linked to at most one user, the user's
 * `employee_id`) and the tenant's workforce settings (name order, half-day split).
 */
import type { RoutePlugin } from '../../platform/context.js';
import { companyRoutes } from './companies/companies.routes.js';
import { departmentRoutes } from './departments/departments.routes.js';
import { employeeRoutes } from './employees/employees.routes.js';
import { workforceSettingsRoutes } from './settings/settings.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const workforceRoutes: RoutePlugin[] = [companyRoutes, departmentRoutes, employeeRoutes, workforceSettingsRoutes];

export { seedOrganisation } from './workforce.seed.js';

// What other domains use.
/** The employee a user's `/me` shows (identity): its link, unless that employee is soft-deleted. */
export { liveEmployeeId } from './employees/employees.queries.js';
