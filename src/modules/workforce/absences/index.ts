/**
 * The workforce's absences: the ledger of absence requests (their approvals, balances and the
 * employee's next availability), home-office requests and the company calendar, the tenant's
 * absence types, and recurring balance transactions with their runs. It stands on the organisation
 * and on time (every amount is counted against the employee's own days).
 */
import type { RoutePlugin } from '../../../platform/context.js';
import { absenceRequestRoutes } from './absence-requests/absence-requests.routes.js';
import { nextAvailabilityRoutes } from './absence-requests/next-availability.routes.js';
import { homeOfficeRoutes } from './home-office/home-office.routes.js';
import { absenceTypeRoutes } from './absence-types/absence-types.routes.js';
import { recurringTransactionRoutes } from './recurring/recurring-transactions.routes.js';

export const absencesRoutes: RoutePlugin[] = [absenceRequestRoutes, nextAvailabilityRoutes, homeOfficeRoutes, absenceTypeRoutes, recurringTransactionRoutes];
export { seedAbsences } from './absences.seed.js';
export { seedRecurringTransactions } from './recurring.seed.js';

/** What approved absences take per day: time's required work time subtracts it (handed in by workforce/index.ts). */
export { approvedAbsenceSeconds } from './absence-requests/absence-ledger.js';
