import type { RecurringTransactionRow } from './recurring-transactions.queries.js';
import type { RecurringTransactionView } from './recurring-transactions.schemas.js';

/** A template as the contract shows it, flat (`run_once` as a boolean). */
export function presentRecurringTransaction(row: RecurringTransactionRow): RecurringTransactionView {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    employee_id: row.employee_id,
    type: row.type,
    sub_type: row.sub_type,
    absence_type_id: row.absence_type_id,
    amount: row.amount,
    tr_type: row.tr_type,
    note: row.note,
    frequency: row.frequency,
    run_once: row.run_once === 1,
    status: row.status,
    failure_reason: row.failure_reason,
    next_run_at: row.next_run_at,
    last_run_at: row.last_run_at,
    last_transaction_id: row.last_transaction_id,
    created_by_user_id: row.created_by_user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
