/**
 * Recurring transaction templates, managed by the PBX through its API key. The moves:
 *   (none) -> active     create; next_run_at = the next period start after now on a day a contract
 *                        of the employee covers (never before the contract's first day)
 *   active -> paused     pause; next_run_at null (nothing runs)
 *   paused | failed -> active   resume; next_run_at from now again, the same way (missed periods are not made up)
 *   active -> completed  a run of a run_once template (recurring-run.ts); final
 *   active -> failed     a run that cannot apply (recurring-run.ts)
 * Each write runs in one transaction with the template locked, and enqueues the run its new
 * next_run_at asks for; the job a change made stale finds next_run_at moved and does nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { findAbsenceType } from '../absence-types/absence-types.queries.js';
import { contractsOverlapping } from '../../time/index.js';
import { findEmployee, tenantZone } from '../../organisation/index.js';
import type { RecurringFrequency, RecurringStatus } from '../absences.tables.js';
import { firstRunOnContract, localDay, nextPeriodStart } from './schedule.js';
import { scheduleRun } from './recurring-run.js';
import {
  findRecurringTransaction,
  insertRecurringTransaction,
  listRecurringTransactions,
  lockRecurringTransaction,
  updateRecurringTransaction,
  type RecurringFilters,
  type RecurringTransactionRow,
} from './recurring-transactions.queries.js';
import type { CreateRecurringTransactionInput, UpdateRecurringTransactionInput } from './recurring-transactions.schemas.js';
import type { Executor } from '../../../../db/database.js';

export type { RecurringTransactionRow };

export const RECURRING_NOT_FOUND = 'Recurring transaction not found.';

/** The far end of "from now on" for a look-up of the contracts that have not ended. */
const LAST_DAY = '9999-12-31';

const SHOWN: Record<RecurringStatus, string> = { active: 'active', paused: 'paused', completed: 'completed', failed: 'failed' };
const refuse = (message: string) => ValidationFailed.field('status', message);

export class RecurringTransactionsService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: RecurringFilters, sort: SortTerm[], page: PageRequest) {
    return listRecurringTransactions(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<RecurringTransactionRow> {
    const row = await findRecurringTransaction(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(RECURRING_NOT_FOUND);
    return row;
  }

  /** Active at once, its first run due at the first period start on a day a contract of the employee covers. */
  async create(tenant: Tenant, principal: Principal, body: CreateRecurringTransactionInput): Promise<RecurringTransactionRow> {
    const zone = await tenantZone(this.ctx.db, tenant);
    const now = this.ctx.clock.now();
    const nextRunAt = await this.firstRun(this.ctx.db, tenant, body.employee_id, body.frequency, now, zone);
    await this.checkAbsenceType(tenant, body);
    const id = randomUUID();
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertRecurringTransaction(trx, {
        id,
        pbx_id: tenant.pbxId,
        employee_id: body.employee_id,
        type: body.type,
        sub_type: body.sub_type ?? null,
        absence_type_id: body.absence_type_id ?? null,
        amount: body.amount,
        tr_type: body.tr_type,
        note: body.note ?? null,
        frequency: body.frequency,
        run_once: body.run_once ? 1 : 0,
        status: 'active',
        failure_reason: null,
        next_run_at: nextRunAt,
        last_run_at: null,
        last_transaction_id: null,
        created_by_user_id: principal.kind === 'user' ? principal.userId : null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      await scheduleRun(trx, this.ctx.clock, tenant, id, nextRunAt);
    });
    return this.get(tenant, id);
  }

  /** Only amount, tr_type, note, frequency and run_once change (the schema refuses the rest); a new frequency moves an active template's next run. */
  async update(tenant: Tenant, id: string, body: UpdateRecurringTransactionInput): Promise<RecurringTransactionRow> {
    await this.change(tenant, id, async (trx, row, now) => {
      if (row.status === 'completed') throw refuse('A completed recurring transaction cannot be changed.');
      const moved = body.frequency !== undefined && body.frequency !== row.frequency && row.status === 'active';
      const nextRunAt = moved ? await this.nextRunAfterChange(trx, tenant, row, body.frequency!, now) : undefined;
      await updateRecurringTransaction(trx, tenant, id, {
        ...(body.amount === undefined ? {} : { amount: body.amount }),
        ...(body.tr_type === undefined ? {} : { tr_type: body.tr_type }),
        ...(body.note === undefined ? {} : { note: body.note }),
        ...(body.frequency === undefined ? {} : { frequency: body.frequency }),
        ...(body.run_once === undefined ? {} : { run_once: body.run_once ? 1 : 0 }),
        ...(nextRunAt ? { next_run_at: nextRunAt } : {}),
        updated_at: now.toISOString(),
      });
      if (nextRunAt) await scheduleRun(trx, this.ctx.clock, tenant, id, nextRunAt);
    });
    return this.get(tenant, id);
  }

  async pause(tenant: Tenant, id: string): Promise<RecurringTransactionRow> {
    await this.change(tenant, id, async (trx, row, now) => {
      if (row.status !== 'active') throw refuse(`Only an active recurring transaction can be paused; this one is ${SHOWN[row.status]}.`);
      await updateRecurringTransaction(trx, tenant, id, { status: 'paused', next_run_at: null, updated_at: now.toISOString() });
    });
    return this.get(tenant, id);
  }

  /**
   * Runs again from the next period start after now on a contract's day (422 when no contract of
   * the employee covers one): periods missed while paused or failed are not made up.
   */
  async resume(tenant: Tenant, id: string): Promise<RecurringTransactionRow> {
    await this.change(tenant, id, async (trx, row, now) => {
      if (row.status !== 'paused' && row.status !== 'failed')
        throw refuse(`Only a paused or failed recurring transaction can be resumed; this one is ${SHOWN[row.status]}.`);
      const nextRunAt = await this.firstRun(trx, tenant, row.employee_id, row.frequency, now, await tenantZone(trx, tenant));
      await updateRecurringTransaction(trx, tenant, id, { status: 'active', failure_reason: null, next_run_at: nextRunAt, updated_at: now.toISOString() });
      await scheduleRun(trx, this.ctx.clock, tenant, id, nextRunAt);
    });
    return this.get(tenant, id);
  }

  /** Soft delete: it no longer runs (its pending job finds it gone); the ledger rows it wrote stay. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.change(tenant, id, async (trx, _row, now) => {
      await updateRecurringTransaction(trx, tenant, id, { deleted_at: now.toISOString(), next_run_at: null, updated_at: now.toISOString() });
    });
  }

  /** A change of a live template of the tenant (else 404), locked against its runs. */
  private async change(tenant: Tenant, id: string, write: (trx: Transaction<DB>, row: RecurringTransactionRow, now: Date) => Promise<void>): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      await lockRecurringTransaction(trx, this.ctx.dialect, tenant, id);
      const row = await findRecurringTransaction(trx, tenant, id);
      if (!row) throw new NotFound(RECURRING_NOT_FOUND);
      await write(trx, row, this.ctx.clock.now());
    });
  }

  /**
   * The first run from `now` on of a template of the employee: the first start of a month (or
   * year) whose day one of the employee's contracts covers, so never before a contract's first
   * day. 422 on employee_id when the employee is not a live one of the PBX, or when no contract of
   * theirs covers any period start from now on (a run would have no balance to change).
   */
  private async firstRun(db: Executor, tenant: Tenant, employeeId: string, frequency: RecurringFrequency, now: Date, zone: string): Promise<string> {
    const employee = await findEmployee(db, tenant, employeeId);
    if (!employee) throw ValidationFailed.field('employee_id', 'The employee_id must be an employee of this PBX.');
    const contracts = await contractsOverlapping(db, tenant, employee.id, localDay(now, zone), LAST_DAY);
    if (contracts.length === 0)
      throw ValidationFailed.field('employee_id', 'The employee has no contract running today or starting later: a run would have no balance to change.');
    const first = firstRunOnContract(now, frequency, zone, contracts);
    if (!first)
      throw ValidationFailed.field(
        'employee_id',
        `No contract of the employee covers the start of a ${frequency === 'monthly_start' ? 'month' : 'year'} from now on: a run would have no balance to change.`,
      );
    return first;
  }

  /**
   * A changed frequency's next run: as for a new template, but a template whose employee no
   * longer has a contract ahead (or is deleted) keeps running to its failure, as before the change.
   */
  private async nextRunAfterChange(
    trx: Transaction<DB>,
    tenant: Tenant,
    row: RecurringTransactionRow,
    frequency: RecurringFrequency,
    now: Date,
  ): Promise<string> {
    const zone = await tenantZone(trx, tenant);
    const contracts = await contractsOverlapping(trx, tenant, row.employee_id, localDay(now, zone), LAST_DAY);
    return firstRunOnContract(now, frequency, zone, contracts) ?? nextPeriodStart(now, frequency, zone);
  }

  private async checkAbsenceType(tenant: Tenant, body: CreateRecurringTransactionInput): Promise<void> {
    if (!body.absence_type_id) return;
    const absenceType = await findAbsenceType(this.ctx.db, tenant, body.absence_type_id);
    if (!absenceType) throw ValidationFailed.field('absence_type_id', 'The absence_type_id must be an absence type of this PBX.');
    if (absenceType.type !== body.type)
      throw ValidationFailed.field('absence_type_id', `The absence type books as ${absenceType.type}, not as the template's type ${body.type}.`);
  }
}
