/**
 * What an approval takes from a contract's balances, and what an approved removal gives back:
 * a legal absence its working days from `leave_balance`, a home-office day its working days from
 * `ho_balance` (untracked while null: a home-office day on an 8 h day is 1 working day, the
 * 28800 seconds its row records), time off against overtime its seconds from
 * `compensatory_balance`. Illness and special leave take nothing. Updates are relative
 * (`balance = balance - amount`), so concurrent approvals of different requests both count.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { AbsenceTableRow } from './absence-requests.queries.js';

type BalanceColumn = 'leave_balance' | 'ho_balance' | 'compensatory_balance';

function balanceOf(row: AbsenceTableRow): { column: BalanceColumn; amount: number } | null {
  switch (row.type) {
    case 'absence':
      return { column: 'leave_balance', amount: row.working_days };
    case 'home_office':
      return { column: 'ho_balance', amount: row.working_days };
    case 'overtime_balance':
      return { column: 'compensatory_balance', amount: row.total_seconds };
    default:
      return null;
  }
}

/** Debits the row's balance on its contract; answers what was taken (null: nothing, e.g. an untracked home-office balance). */
export async function debitBalance(trx: Transaction<DB>, tenant: Tenant, row: AbsenceTableRow): Promise<number | null> {
  const balance = balanceOf(row);
  if (!balance || !row.contract_id || balance.amount === 0) return null;
  const column = sql.ref(balance.column);
  const result = await trx
    .updateTable('employee_contracts')
    .set({ [balance.column]: sql`${column} - ${balance.amount}` })
    .where('id', '=', row.contract_id)
    .where('pbx_id', '=', tenant.pbxId)
    .where(balance.column, 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? balance.amount : null;
}

/** Gives back what the row's approval took. */
export async function creditBalance(trx: Transaction<DB>, tenant: Tenant, row: AbsenceTableRow): Promise<void> {
  const balance = balanceOf(row);
  if (!balance || !row.contract_id || row.balance_debited === null) return;
  const column = sql.ref(balance.column);
  await trx
    .updateTable('employee_contracts')
    .set({ [balance.column]: sql`${column} + ${row.balance_debited}` })
    .where('id', '=', row.contract_id)
    .where('pbx_id', '=', tenant.pbxId)
    .where(balance.column, 'is not', null)
    .execute();
}
