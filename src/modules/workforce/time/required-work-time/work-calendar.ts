/**
 * An employee's own days: for each calendar day, the contract that governs it, the seconds of a
 * full day of the employee's work shift, and the seconds scheduled once the company's holidays are
 * applied. Required work time and every absence amount read the employee's days here.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { contractsOverlappingWithCompany, type ContractTableRow } from '../contracts/contracts.queries.js';
import { companyDaysOffFrom, daysOffByDate } from '../holidays/holiday-calendar.js';
import { eachDay, type CalendarDay } from '../../shared/index.js';
import { assignmentsWithShifts } from '../work-shifts/work-shift-assignments.queries.js';
import { secondsOnWeekday } from '../work-shifts/work-shifts.service.js';

export interface WorkDay {
  day: CalendarDay;
  /** 1 (Monday) to 7 (Sunday). */
  weekday: number;
  /** The contract whose company's holidays count that day; undefined outside every contract. */
  contract: ContractTableRow | undefined;
  /** A full day of the employee's shift on this weekday (0 outside every contract or assignment). */
  shiftSeconds: number;
  /** What is scheduled: the shift's seconds, 0 on a full holiday, half (rounded down) on a half one. */
  scheduledSeconds: number;
  holiday: 'full' | 'half' | undefined;
}

const covers = (start: CalendarDay, end: CalendarDay | null, day: CalendarDay) => start <= day && (end === null || day <= end);

/** Of the contracts covering a day (ordered by start), the one that governs it: the stored main one, else the earliest started. */
export function governingContract(contracts: ContractTableRow[], day: CalendarDay): ContractTableRow | undefined {
  const covering = contracts.filter((contract) => covers(contract.contract_start, contract.contract_end, day));
  return covering.find((contract) => contract.main_company === 1) ?? covering[0];
}

/**
 * Every day of `from`..`to`, in order. Two statements sent together (one round trip on
 * PostgreSQL): the contracts with where their companies are and the tenant's holidays that apply
 * to them, and the assignments with their shifts.
 */
export async function workCalendar(db: Kysely<DB>, tenant: Tenant, employeeId: string, from: CalendarDay, to: CalendarDay): Promise<WorkDay[]> {
  // Contracts come ordered by start (then id), so the first covering one is the earliest started.
  const [located, assignments] = await Promise.all([
    contractsOverlappingWithCompany(db, tenant, employeeId, from, to),
    assignmentsWithShifts(db, tenant, employeeId, from, to),
  ]);
  const contracts = located.map((row) => row.contract);
  // One calendar per company (null: contracts without one); a company's contracts carry the same holidays.
  const byCompany = new Map(located.map((row) => [row.contract.company_id, row] as const));
  const companyIds = [...new Set(contracts.map((contract) => contract.company_id))];
  const calendars = await Promise.all(
    companyIds.map(async (companyId) => {
      const { company, holidays } = byCompany.get(companyId) as (typeof located)[number];
      return daysOffByDate(await companyDaysOffFrom(company, holidays, from, to));
    }),
  );
  const daysOff = new Map(companyIds.map((companyId, i) => [companyId, calendars[i]]));
  const shifts = new Map(assignments.flatMap(({ shift }) => (shift ? [[shift.id, shift] as const] : [])));

  return eachDay(from, to).map(({ day, weekday }) => {
    const contract = governingContract(contracts, day);
    if (!contract) return { day, weekday, contract, shiftSeconds: 0, scheduledSeconds: 0, holiday: undefined };
    const assignment = assignments.find(({ assignment: candidate }) => covers(candidate.valid_from, candidate.valid_until, day))?.assignment;
    const shift = assignment ? shifts.get(assignment.work_shift_id) : undefined;
    const shiftSeconds = shift ? secondsOnWeekday(shift, weekday) : 0;
    const holiday = daysOff.get(contract.company_id)?.get(day);
    const scheduledSeconds = holiday === 'full' ? 0 : holiday === 'half' ? Math.floor(shiftSeconds / 2) : shiftSeconds;
    return { day, weekday, contract, shiftSeconds, scheduledSeconds, holiday };
  });
}
