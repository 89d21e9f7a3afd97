/**
 * Row types of the workforce's organisation (migrations 0010, 0011): companies, departments and
 * their validators, employees. Same storage rules as the foundation (booleans 0/1, timestamps ISO
 * text).
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../../db/columns.js';

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

/** The employees who decide the requests of a department's employees, in order. */
export interface DepartmentValidatorTable {
  department_id: string;
  employee_id: string;
  pbx_id: string;
  position: number;
}

export interface OrganisationTables {
  companies: CompanyTable;
  departments: DepartmentTable;
  employees: EmployeeTable;
  department_validators: DepartmentValidatorTable;
}
