/**
 * Row types of the workforce's time (migration 0010): employee-company contracts, work shifts and
 * their assignments, and the tenant's own holidays. Same storage rules as the foundation (booleans
 * 0/1, timestamps ISO text); calendar days are `YYYY-MM-DD` text.
 */
import type { Generated } from 'kysely';
import type { CalendarDay, Flag, Timestamp } from '../../../db/columns.js';

/** Employee x company over a period: the contract's "user company". */
export interface EmployeeContractTable {
  id: string;
  pbx_id: string;
  employee_id: string;
  company_id: string | null;
  department_id: string | null;
  /** 1.0 = full time. */
  participation: number | null;
  contract_start: CalendarDay;
  /** Null = open-ended; the last day of the contract otherwise. */
  contract_end: CalendarDay | null;
  main_company: Flag;
  /** Seconds. */
  compensatory_balance: Generated<number>;
  ho_balance: number | null;
  /** Paid-leave days left (migration 0011): approvals of legal absences debit it, removals credit it back. */
  leave_balance: Generated<number>;
  title: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** A named weekly pattern: seconds of work per ISO weekday. */
export interface WorkShiftTable {
  id: string;
  pbx_id: string;
  name: string;
  monday: Generated<number>;
  tuesday: Generated<number>;
  wednesday: Generated<number>;
  thursday: Generated<number>;
  friday: Generated<number>;
  saturday: Generated<number>;
  sunday: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** An employee works `work_shift_id` from `valid_from` through `valid_until` (null = open-ended). */
export interface WorkShiftAssignmentTable {
  id: string;
  pbx_id: string;
  employee_id: string;
  work_shift_id: string;
  valid_from: CalendarDay;
  valid_until: CalendarDay | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** A holiday the tenant adds to the public ones, for every company (company_id null) or one. */
export interface TenantHolidayTable {
  id: string;
  pbx_id: string;
  company_id: string | null;
  date: CalendarDay;
  name: string;
  half_day: Flag;
  /** Every year on the same month and day. */
  recurring: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface TimeTables {
  employee_contracts: EmployeeContractTable;
  work_shifts: WorkShiftTable;
  work_shift_assignments: WorkShiftAssignmentTable;
  tenant_holidays: TenantHolidayTable;
}
