/**
 * Row types of the workforce (migration 0010): companies, departments, employees, contracts,
 * work shifts and their assignments, and the tenant's own holidays. Same storage rules as the
 * foundation (booleans 0/1, timestamps ISO text); calendar days are `YYYY-MM-DD` text.
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

/** `YYYY-MM-DD`. */
export type CalendarDay = string;

/** A legal employer of the tenant. */
export interface CompanyTable {
  id: string;
  pbx_id: string;
  name: string;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2, upper case: the public holidays' country. */
  country_cc: string;
  /** ISO 3166-2 subdivision code without the country (e.g. `BY`), for regional holidays. */
  region: string | null;
  /** Paid-leave days per year. */
  legal_holidays: Generated<number>;
  /** Seconds of a full-time week. */
  full_time: Generated<number>;
  overtime_calculation_period_enabled: Flag;
  overtime_decision_enabled: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface DepartmentTable {
  id: string;
  pbx_id: string;
  company_id: string | null;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** A person of the tenant; `users.employee_id` links at most one user to it. */
export interface EmployeeTable {
  id: string;
  pbx_id: string;
  /** The employee's id in an external HR system. */
  ext_id: string | null;
  first_name: string;
  last_name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

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

export interface WorkforceTables {
  companies: CompanyTable;
  departments: DepartmentTable;
  employees: EmployeeTable;
  employee_contracts: EmployeeContractTable;
  work_shifts: WorkShiftTable;
  work_shift_assignments: WorkShiftAssignmentTable;
  tenant_holidays: TenantHolidayTable;
}
