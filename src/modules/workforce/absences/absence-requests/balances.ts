/**
 * What an approval takes from a contract's balances, and what an approved removal gives back:
 * a legal absence its working days from `leave_balance`, a home-office day its working days from
 * `ho_balance` (untracked while null: a home-office day on an 8 h day is 1 working day, the
 * 28800 seconds its row records), time off against overtime its seconds from
 * `compensatory_balance`. Illness and special leave take nothing. A recurring transaction's
 * run adjusts the same balances (applyAdjustment). Updates are relative (`balance = balance -
 * amount`, time's addToContractBalance: the contract is time's), so concurrent approvals of
 * different requests both count.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { StoredAbsenceType } from '../absences.tables.js';
import type { AbsenceTableRow } from './absence-requests.queries.js';
import { addToContractBalance, type ContractBalance } from '../../time/index.js';

/** The balance each ledger type keeps on the contract; illness and special leave keep none. */
const BALANCE_COLUMNS: Partial<Record<StoredAbsenceType, ContractBalance>> = {
  absence: 'leave_balance',
  home_office: 'ho_balance',
  overtime_balance: 'compensatory_balance',
};

/** The balance the row's type keeps, and the row's amount in its unit (days, or seconds for overtime). */
function balanceOf(row: Pick<AbsenceTableRow, 'type' | 'working_days' | 'total_seconds'>): { column: ContractBalance; amount: number } | null {
  const column = BALANCE_COLUMNS[row.type];
  if (!column) return null;
  return { column, amount: column === 'compensatory_balance' ? row.total_seconds : row.working_days };
}

/** Debits the row's balance on its contract; answers what was taken (null: nothing, e.g. an untracked home-office balance). */
export async function debitBalance(trx: Transaction<DB>, tenant: Tenant, row: AbsenceTableRow): Promise<number | null> {
  const balance = balanceOf(row);
  if (!balance || !row.contract_id || balance.amount === 0) return null;
  return (await addToContractBalance(trx, tenant, row.contract_id, balance.column, -balance.amount)) ? balance.amount : null;
}

/** Gives back what the row's approval took. */
export async function creditBalance(trx: Transaction<DB>, tenant: Tenant, row: AbsenceTableRow): Promise<void> {
  const balance = balanceOf(row);
  if (!balance || !row.contract_id || row.balance_debited === null) return;
  await addToContractBalance(trx, tenant, row.contract_id, balance.column, row.balance_debited);
}

/**
 * Applies a balance adjustment row (a recurring transaction's run): its amount added to
 * (`credit`) or taken from (`debit`) the balance its type keeps. False when there is nothing to
 * apply it to: no such balance, no contract, or an untracked (null) home-office balance.
 */
export async function applyAdjustment(
  trx: Transaction<DB>,
  tenant: Tenant,
  row: Pick<AbsenceTableRow, 'type' | 'contract_id' | 'working_days' | 'total_seconds' | 'adjustment'>,
): Promise<boolean> {
  const balance = balanceOf(row);
  if (!balance || !row.contract_id || !row.adjustment) return false;
  return addToContractBalance(trx, tenant, row.contract_id, balance.column, row.adjustment === 'debit' ? -balance.amount : balance.amount);
}
