/**
 * Contracted work time per calendar day of one employee: 0 outside every contract; else the
 * seconds of the work-shift assignment covering the day for its ISO weekday (0 with none); a
 * holiday of the contract's company clears it (full day) or halves it (half day, rounded down);
 * then approved absences are subtracted, never below zero.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { approvedAbsenceSeconds, type AbsenceLedger } from '../absence-ledger.js';
import { contractsOverlapping, type ContractTableRow } from '../contracts/contracts.queries.js';
import { companyDaysOff, daysOffByDate } from '../holidays/holiday-calendar.js';
import { eachDay, type CalendarDay } from '../shared/days.js';
import { companiesByIds } from '../companies/companies.queries.js';
import { assignmentsOverlapping } from '../work-shifts/work-shift-assignments.queries.js';
import { workShiftsByIds } from '../work-shifts/work-shifts.queries.js';
import { secondsOnWeekday } from '../work-shifts/work-shifts.service.js';

const covers = (start: CalendarDay, end: CalendarDay | null, day: CalendarDay) => start <= day && (end === null || day <= end);

/** Of the contracts covering a day, the one whose company's holidays count: the stored main one, else the earliest started. */
function governingContract(contracts: ContractTableRow[], day: CalendarDay): ContractTableRow | undefined {
  const covering = contracts.filter((contract) => covers(contract.contract_start, contract.contract_end, day));
  return covering.find((contract) => contract.main_company === 1) ?? covering[0];
}

/**
 * Seconds per day of `from`..`to`, every day present, in order. `ledger` is the approved-absence
 * source (the real one unless a test hands in another).
 */
export async function requiredWorkTime(
  db: Kysely<DB>,
  tenant: Tenant,
  employeeId: string,
  from: CalendarDay,
  to: CalendarDay,
  ledger: AbsenceLedger = approvedAbsenceSeconds,
): Promise<Record<CalendarDay, number>> {
  // Contracts come ordered by start (then id), so the first covering one is the earliest started.
  const [contracts, assignments, absences] = await Promise.all([
    contractsOverlapping(db, tenant, employeeId, from, to),
    assignmentsOverlapping(db, tenant, employeeId, from, to),
    ledger(db, tenant, employeeId, from, to),
  ]);
  const [shifts, companies] = await Promise.all([
    workShiftsByIds(
      db,
      tenant,
      assignments.map((assignment) => assignment.work_shift_id),
    ),
    companiesByIds(
      db,
      tenant,
      contracts.map((contract) => contract.company_id),
    ),
  ]);
  const companyIds = [...new Set(contracts.map((contract) => contract.company_id))];
  const calendars = await Promise.all(
    companyIds.map(async (companyId) =>
      daysOffByDate(await companyDaysOff(db, tenant, companyId === null ? null : (companies.get(companyId) ?? null), from, to)),
    ),
  );
  const daysOff = new Map(companyIds.map((companyId, i) => [companyId, calendars[i]]));

  const result: Record<CalendarDay, number> = {};
  for (const { day, weekday } of eachDay(from, to)) {
    const contract = governingContract(contracts, day);
    if (!contract) {
      result[day] = 0;
      continue;
    }
    const assignment = assignments.find((candidate) => covers(candidate.valid_from, candidate.valid_until, day));
    const shift = assignment ? shifts.get(assignment.work_shift_id) : undefined;
    let seconds = shift ? secondsOnWeekday(shift, weekday) : 0;
    const off = daysOff.get(contract.company_id)?.get(day);
    if (off === 'full') seconds = 0;
    else if (off === 'half') seconds = Math.floor(seconds / 2);
    result[day] = Math.max(0, seconds - (absences.get(day) ?? 0));
  }
  return result;
}
