/**
 * Writing new ledger rows, for absence and home-office requests alike: the row with its amounts,
 * its validators' entries, and the check that none of its working days is already held by a live
 * row of the employee (pending, accepted, or accepted with a removal pending), made under the
 * employee's lock so two requests for the same day cannot both pass it.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { DialectName } from '../../../../db/database.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import { lockEmployee } from '../../organisation/index.js';
import type { WorkDay } from '../../time/index.js';
import type { AbsenceRequestTable, StoredAbsenceType } from '../absences.tables.js';
import type { AbsenceAmounts, AbsencePeriod } from './absence-amounts.js';
import { insertAbsenceRequests, insertValidators, LIVE_STATUSES, rowsOverlapping, type AbsenceTableRow } from './absence-requests.queries.js';
import { validatorEntries, type ValidatorPlan } from './approvals.js';
import { requestedTimeOf } from './absence-requests.presenter.js';

export interface NewLedgerRow {
  type: StoredAbsenceType;
  period: AbsencePeriod;
  amounts: AbsenceAmounts;
  /** The contract governing the first working day: its company, and the balance an approval debits. */
  contract: WorkDay['contract'];
  startTime?: string | null;
  endTime?: string | null;
  halfDayPart?: 'morning' | 'afternoon' | null;
  comment?: string | null;
  requestGroupId?: string | null;
  plan: ValidatorPlan;
}

/** A new pending row; `principal` null: written by the server itself (a recurring transaction's run). */
export function ledgerRow(tenant: Tenant, employeeId: string, principal: Principal | null, now: string, row: NewLedgerRow): Insertable<AbsenceRequestTable> {
  return {
    id: randomUUID(),
    pbx_id: tenant.pbxId,
    employee_id: employeeId,
    company_id: row.contract?.company_id ?? null,
    contract_id: row.contract?.id ?? null,
    type: row.type,
    sub_type: null,
    status: 'pending',
    start_day: row.period.start,
    end_day: row.period.end,
    starts_half_day: row.period.startsHalfDay ? 1 : 0,
    ends_half_day: row.period.endsHalfDay ? 1 : 0,
    start_time: row.period.startsHalfDay ? (row.startTime ?? null) : null,
    end_time: row.period.endsHalfDay ? (row.endTime ?? null) : null,
    half_day_part: row.halfDayPart ?? null,
    requested_time: JSON.stringify(row.amounts.requestedTime),
    working_days: row.amounts.workingDays,
    total_seconds: row.amounts.totalSeconds,
    workshift_seconds_per_day: row.amounts.workshiftSecondsPerDay,
    comment: row.comment ?? null,
    request_group_id: row.requestGroupId ?? null,
    removal_of_id: null,
    balance_debited: null,
    created_by_user_id: principal?.kind === 'user' ? principal.userId : null,
    decided_at: null,
    created_at: now,
    updated_at: now,
  };
}

export interface NewAdjustment {
  type: StoredAbsenceType;
  subType: string;
  day: CalendarDay;
  direction: 'credit' | 'debit';
  /** Days for day balances (leave, home office), 0 for overtime. */
  workingDays: number;
  /** Seconds for overtime, 0 for day balances. */
  totalSeconds: number;
  contract: WorkDay['contract'];
  comment: string | null;
  recurringTransactionId: string;
}

/**
 * A balance adjustment a recurring transaction's run writes: accepted as written, with no
 * validators and no day of its own (an empty day breakdown), so nothing reads it as time away.
 */
export function adjustmentRow(tenant: Tenant, employeeId: string, now: string, adjustment: NewAdjustment): Insertable<AbsenceRequestTable> {
  const row = ledgerRow(tenant, employeeId, null, now, {
    type: adjustment.type,
    period: { start: adjustment.day, end: adjustment.day, startsHalfDay: false, endsHalfDay: false },
    amounts: { requestedTime: {}, workingDays: adjustment.workingDays, totalSeconds: adjustment.totalSeconds, workshiftSecondsPerDay: 0 },
    contract: adjustment.contract,
    comment: adjustment.comment,
    plan: [],
  });
  return {
    ...row,
    sub_type: adjustment.subType,
    status: 'approved',
    decided_at: now,
    recurring_transaction_id: adjustment.recurringTransactionId,
    adjustment: adjustment.direction,
  };
}

/** For each working day of `days` already held by a live row of the employee: that row. */
export function heldDays(live: AbsenceTableRow[], days: CalendarDay[]): Map<CalendarDay, AbsenceTableRow> {
  const held = new Map<CalendarDay, AbsenceTableRow>();
  for (const row of live) for (const day of Object.keys(requestedTimeOf(row))) if (days.includes(day) && !held.has(day)) held.set(day, row);
  return held;
}

/**
 * Inserts the rows and their validators' entries after locking the employee; `check` sees the
 * employee's live rows over the rows' span and throws to refuse.
 */
export async function insertLedgerRows(
  trx: Transaction<DB>,
  dialect: DialectName,
  tenant: Tenant,
  employeeId: string,
  rows: Array<{ row: Insertable<AbsenceRequestTable>; plan: ValidatorPlan }>,
  check: (live: AbsenceTableRow[]) => void,
): Promise<void> {
  await lockEmployee(trx, dialect, tenant, employeeId);
  const from = rows.reduce((min, { row }) => (row.start_day < min ? row.start_day : min), rows[0].row.start_day);
  const to = rows.reduce((max, { row }) => (row.end_day > max ? row.end_day : max), rows[0].row.end_day);
  check(await rowsOverlapping(trx, tenant, employeeId, from, to, LIVE_STATUSES));
  await insertAbsenceRequests(
    trx,
    rows.map(({ row }) => row),
  );
  await insertValidators(
    trx,
    rows.flatMap(({ row, plan }) => validatorEntries(tenant, row.id, plan)),
  );
}
