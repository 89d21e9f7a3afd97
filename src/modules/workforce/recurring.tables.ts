/**
 * Row types of recurring balance transactions (migration 0012): the tenant's catalogue of absence
 * types and the templates whose runs credit or debit a contract's balance. Same storage rules as
 * the rest of the workforce (booleans 0/1, timestamps ISO text).
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

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

export interface RecurringTables {
  absence_types: AbsenceTypeTable;
  recurring_transactions: RecurringTransactionTable;
}
