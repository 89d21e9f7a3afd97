/**
 * Row types of the workforce's absences: the ledger of absence requests and their validators'
 * decisions (migration 0011), the tenant's catalogue of absence types and the recurring
 * transactions whose runs credit or debit a contract's balance (migration 0012). Same storage rules
 * as the foundation (booleans 0/1, timestamps ISO text); calendar days are `YYYY-MM-DD` text.
 */
import type { Generated } from 'kysely';
import type { CalendarDay, Flag, Timestamp } from '../../../db/columns.js';

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
   * as 0 (no time taken) and as the signed `adjustment` object instead (absence-requests.presenter.ts).
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

/** A ledger type in the contract's spelling (`legal` is stored as `absence` in the ledger). */
export type LedgerTypeName = 'legal' | 'home_office' | 'illness' | 'special' | 'overtime_balance';

/** A named kind of absence of the tenant ("Annual leave"), mapped to a ledger type. */
export interface AbsenceTypeTable {
  id: string;
  pbx_id: string;
  name: string;
  type: LedgerTypeName;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** The ledger types with a balance on the contract: what a recurring transaction changes. */
export type RecurringType = 'legal' | 'home_office' | 'overtime_balance';
export type RecurringFrequency = 'monthly_start' | 'yearly_start';
export type RecurringStatus = 'active' | 'paused' | 'completed' | 'failed';
export type BalanceDirection = 'credit' | 'debit';

/** A template: each run at the start of a month or year writes one credit or debit to the employee's balance. */
export interface RecurringTransactionTable {
  id: string;
  pbx_id: string;
  employee_id: string;
  type: RecurringType;
  sub_type: string | null;
  absence_type_id: string | null;
  /** Days for legal and home_office, hours for overtime_balance. */
  amount: number;
  tr_type: BalanceDirection;
  note: string | null;
  frequency: RecurringFrequency;
  run_once: Flag;
  status: RecurringStatus;
  failure_reason: string | null;
  /** The instant the next run is due (UTC); null unless active. */
  next_run_at: Timestamp | null;
  /** The due instant of the last run that applied. */
  last_run_at: Timestamp | null;
  /** The ledger row (absence_requests.id) the last run wrote. */
  last_transaction_id: string | null;
  created_by_user_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface AbsencesTables {
  absence_requests: AbsenceRequestTable;
  absence_request_validators: AbsenceRequestValidatorTable;
  absence_types: AbsenceTypeTable;
  recurring_transactions: RecurringTransactionTable;
}
