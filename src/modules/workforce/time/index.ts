/**
 * The workforce's time: employee-company contracts (the contract's user companies and their
 * balances), work shifts and their assignments, the tenant's holidays and the public holiday
 * calendar, each employee's own days (`required-work-time/work-calendar.ts`) and required work
 * time. It stands on the organisation (companies, departments, who may act on an employee).
 */
import type { RoutePlugin } from '../../../platform/context.js';
import { contractRoutes } from './contracts/contracts.routes.js';
import { workShiftRoutes } from './work-shifts/work-shifts.routes.js';
import { workShiftAssignmentRoutes } from './work-shifts/work-shift-assignments.routes.js';
import { holidayRoutes } from './holidays/holidays.routes.js';
import { requiredWorkTimeRoutes } from './required-work-time/required-work-time.routes.js';
import type { AbsenceLedger } from './required-work-time/required-work-time.js';

/** Time's routes; required work time subtracts what `absences` says approved absences take. */
export const timeRoutes = (absences: AbsenceLedger): RoutePlugin[] => [
  contractRoutes,
  workShiftRoutes,
  workShiftAssignmentRoutes,
  holidayRoutes,
  requiredWorkTimeRoutes(absences),
];
export { seedWorkforceTime } from './time.seed.js';

// What the other workforce sub-domains use.
export type { AbsenceLedger };
export {
  activeContracts,
  addToContractBalance,
  contractsActiveOn,
  contractsOverlapping,
  currentMainContractId,
  findContract,
  tenantContractsActiveOn,
  type ContractBalance,
} from './contracts/contracts.queries.js';
export { governingContract, workCalendar, type WorkDay } from './required-work-time/work-calendar.js';
/** Public holidays and the tenant's own (routing's time conditions close on them). */
export { publicHolidays, tenantHolidays } from './holidays/holiday-calendar.js';
