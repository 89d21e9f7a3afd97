/**
 * Row types of the workforce's organisation (migration 0010): companies, departments and their
 * validators, employees; and, until the absences sub-domain takes them, the absence ledger's rows
 * (migration 0011). Same storage rules as the foundation (booleans 0/1, timestamps ISO text);
 * calendar days are `YYYY-MM-DD` text.
 */
import type { Generated } from 'kysely';
import type { CalendarDay, Flag, Timestamp } from '../../../db/columns.js';

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

/** Stored absence types; `absence` is the contract's `legal`. */
export type StoredAbsenceType = 'absence' | 'home_office' | 'illness' | 'special' | 'overtime_balance';
/** Stored statuses; `approved` and `cancelled` are the contract's `accepted` and `canceled`. */
export type StoredAbsenceStatus = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'pending_removal' | 'removed';
export type ValidatorStatus = 'pending' | 'accepted' | 'rejected';

/** One ledger row (migration 0011): amounts are computed once, when the row is written. */
export interface AbsenceRequestTable {
  id: string;
  pbx_id: string;
  employee_id: string;
  company_id: string | null;
  contract_id: string | null;
  type: StoredAbsenceType;
  /** `removal` on the row that takes an accepted request back. */
  sub_type: string | null;
  status: StoredAbsenceStatus;
  start_day: CalendarDay;
  end_day: CalendarDay;
  starts_half_day: Flag;
  ends_half_day: Flag;
  /** HH:MM as the request gave it; null = the tenant's half-day split. */
  start_time: string | null;
  end_time: string | null;
  /** Which half a single half day takes (both flags are true on it); null otherwise or when both hours are given. */
  half_day_part: 'morning' | 'afternoon' | null;
  /** JSON object: working day -> seconds taken. */
  requested_time: string;
  working_days: number;
  total_seconds: number;
  workshift_seconds_per_day: number;
  comment: string | null;
  request_group_id: string | null;
  removal_of_id: string | null;
  /** What the approval took from a balance, given back by an approved removal. */
  balance_debited: number | null;
  created_by_user_id: string | null;
  decided_at: Timestamp | null;
  /** On a balance adjustment a recurring transaction's run wrote (migration 0012): the template; null on requests. */
  recurring_transaction_id: string | null;
  /**
   * On a balance adjustment: whether it added to the balance or took from it; null on requests. Its
   * unsigned amount is stored in working_days (days) or total_seconds (overtime), which the API shows
   * as 0 (no time taken) and as the signed `adjustment` object instead (absence-view.ts).
   */
  adjustment: 'credit' | 'debit' | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One validator's decision on one request; employee_id null = any administrator of the tenant. */
export interface AbsenceRequestValidatorTable {
  id: string;
  pbx_id: string;
  absence_request_id: string;
  position: number;
  employee_id: string | null;
  status: Generated<ValidatorStatus>;
  decided_by_user_id: string | null;
  decided_at: Timestamp | null;
}

/** The employees who decide the requests of a department's employees, in order. */
export interface DepartmentValidatorTable {
  department_id: string;
  employee_id: string;
  pbx_id: string;
  position: number;
}

export interface WorkforceTables {
  companies: CompanyTable;
  departments: DepartmentTable;
  employees: EmployeeTable;
  absence_requests: AbsenceRequestTable;
  absence_request_validators: AbsenceRequestValidatorTable;
  department_validators: DepartmentValidatorTable;
}
