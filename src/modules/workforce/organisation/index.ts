/**
 * The workforce's organisation: companies, departments (and their validators), employees with
 * their one link to a user, and the tenant's workforce settings (name order, half-day split). The
 * other sub-domains stand on it: who a request may act on, the tenant's today, and every
 * `fullName`. It uses no other sub-domain but `shared/`.
 */
import type { RoutePlugin } from '../../../platform/context.js';
import { companyRoutes } from './companies/companies.routes.js';
import { departmentRoutes } from './departments/departments.routes.js';
import { employeeRoutes } from './employees/employees.routes.js';
import { workforceSettingsRoutes } from './settings/settings.routes.js';

export const organisationRoutes: RoutePlugin[] = [companyRoutes, departmentRoutes, employeeRoutes, workforceSettingsRoutes];
export { demoOrganisationOf, seedOrganisation } from './organisation.seed.js';

// What the other workforce sub-domains use.
export { companiesByIds, companyLocations, findCompany, type CompanyRow } from './companies/companies.queries.js';
export { ContractCompanySchema } from './companies/companies.schemas.js';
export { presentContractCompany } from './companies/companies.presenter.js';
export { departmentValidatorIds, departmentsByIds, findDepartment } from './departments/departments.queries.js';
export { employeeExtIdOf, employeeNamesByIds, findEmployee, liveEmployeeId, liveEmployeeNames } from './employees/employees.queries.js';
export {
  callerEmployee,
  employeeForRead,
  employeeForWrite,
  linkedEmployeeId,
  lockEmployee,
  managesEmployees,
  ownEmployeeOnly,
  tenantToday,
  tenantZone,
} from './employee-access.js';
export { fullName, nameSortColumns, type NameOrder } from './full-name.js';
export { liveIdsIn } from './live-ids.js';
export { findSettings, nameOrderOf } from './settings/settings.queries.js';
