/**
 * The scheduler of recurring transactions, on the durable job system: each active template has one
 * pending job due at its `next_run_at`, enqueued in the transaction that set it. A run, in one
 * transaction with the template locked, books one adjustment to the employee's balance, moves
 * `next_run_at` to the next period start after the one it booked and enqueues that run. A job
 * whose `dueAt` is no longer the template's `next_run_at` (changed, paused, deleted, or already
 * run by a worker that died before marking its job complete) does nothing, so a run is neither
 * lost (a run that died rolls back, and its job is claimed again after its lease) nor doubled.
 * A server down for months catches up one run per missed period, each booked on its own day.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Clock } from '../../../../platform/clock.js';
import type { AppContext } from '../../../../platform/context.js';
import { defineJob } from '../../../../platform/jobs/jobs.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { storedType } from '../absence-requests/absence-requests.presenter.js';
import { insertAbsenceRequests } from '../absence-requests/absence-requests.queries.js';
import { applyAdjustment } from '../absence-requests/balances.js';
import { adjustmentRow } from '../absence-requests/ledger-writes.js';
import { contractsOverlapping, governingContract } from '../../time/index.js';
import { findEmployee, tenantZone } from '../../organisation/index.js';
import {
  findRecurringTransaction,
  lockRecurringTransaction,
  updateRecurringTransaction,
  type RecurringTransactionRow,
} from './recurring-transactions.queries.js';
import { localDay, nextPeriodStart } from './schedule.js';

export interface RunPayload {
  pbxId: string;
  templateId: string;
  /** The template's `next_run_at` when the job was enqueued: the run this job is for. */
  dueAt: string;
}

export type RunOutcome = 'applied' | 'failed' | 'stale';

const SECONDS_PER_HOUR = 3600;

export const recurringTransactionRun = defineJob<RunPayload>({
  kind: 'workforce.recurring_transaction.run',
  run: async (ctx, payload) => {
    await runRecurringTransaction(ctx, payload);
  },
  // A run that kept throwing (not one that could not apply: that fails the template itself) must not leave the template silently stuck.
  onExhausted: (ctx, payload, error) => failStuckRun(ctx, payload, error),
});

/** Enqueues the template's run due at `dueAt`; pass the transaction that set its `next_run_at`. */
export async function scheduleRun(trx: Transaction<DB>, clock: Clock, tenant: Tenant, templateId: string, dueAt: string): Promise<void> {
  await recurringTransactionRun.enqueue(trx, clock, { pbxId: tenant.pbxId, templateId, dueAt }, { runAt: new Date(dueAt) });
}

/** The template locked, if this job's run is still the one it waits for. */
async function dueTemplate(trx: Transaction<DB>, ctx: AppContext, tenant: Tenant, payload: RunPayload): Promise<RecurringTransactionRow | undefined> {
  await lockRecurringTransaction(trx, ctx.dialect, tenant, payload.templateId);
  const template = await findRecurringTransaction(trx, tenant, payload.templateId);
  if (!template || template.status !== 'active' || template.next_run_at !== payload.dueAt) return undefined;
  return template;
}

/** Books the run's adjustment; answers the ledger row's id, or why the run cannot apply. */
async function book(
  trx: Transaction<DB>,
  tenant: Tenant,
  template: RecurringTransactionRow,
  day: string,
  now: string,
): Promise<{ rowId: string } | { failure: string }> {
  const employee = await findEmployee(trx, tenant, template.employee_id);
  if (!employee) return { failure: 'The employee has been deleted.' };
  const contract = governingContract(await contractsOverlapping(trx, tenant, employee.id, day, day), day);
  if (!contract) return { failure: `No contract of the employee covers ${day}, the day of the run.` };
  const overtime = template.type === 'overtime_balance';
  const row = adjustmentRow(tenant, employee.id, now, {
    type: storedType(template.type),
    subType: template.sub_type ?? 'recurring',
    day,
    direction: template.tr_type,
    workingDays: overtime ? 0 : template.amount,
    totalSeconds: overtime ? Math.round(template.amount * SECONDS_PER_HOUR) : 0,
    contract,
    comment: template.note,
    recurringTransactionId: template.id,
  });
  const applied = await applyAdjustment(trx, tenant, {
    type: row.type,
    contract_id: contract.id,
    working_days: row.working_days,
    total_seconds: row.total_seconds,
    adjustment: template.tr_type,
  });
  if (!applied) return { failure: `The contract covering ${day} does not track a home-office balance (its ho_balance is null).` };
  await insertAbsenceRequests(trx, [row]);
  return { rowId: row.id };
}

/**
 * Runs the template's run due at `payload.dueAt`, if it is still due: books it (or fails the
 * template with the reason it cannot), and schedules the next one. `last_run_at` is the due
 * instant, so catch-up runs stay distinct.
 */
export async function runRecurringTransaction(ctx: AppContext, payload: RunPayload): Promise<RunOutcome> {
  const tenant: Tenant = { pbxId: payload.pbxId };
  return ctx.db.transaction().execute(async (trx) => {
    const template = await dueTemplate(trx, ctx, tenant, payload);
    if (!template) return 'stale';
    const zone = await tenantZone(trx, tenant);
    const now = ctx.clock.now().toISOString();
    const booked = await book(trx, tenant, template, localDay(payload.dueAt, zone), now);
    if ('failure' in booked) {
      await updateRecurringTransaction(trx, tenant, template.id, { status: 'failed', failure_reason: booked.failure, next_run_at: null, updated_at: now });
      return 'failed';
    }
    const next = template.run_once === 1 ? null : nextPeriodStart(payload.dueAt, template.frequency, zone);
    await updateRecurringTransaction(trx, tenant, template.id, {
      status: next ? 'active' : 'completed',
      failure_reason: null,
      last_run_at: payload.dueAt,
      last_transaction_id: booked.rowId,
      next_run_at: next,
      updated_at: now,
    });
    if (next) await scheduleRun(trx, ctx.clock, tenant, template.id, next);
    return 'applied';
  });
}

async function failStuckRun(ctx: AppContext, payload: RunPayload, error: string): Promise<void> {
  const tenant: Tenant = { pbxId: payload.pbxId };
  await ctx.db.transaction().execute(async (trx) => {
    const template = await dueTemplate(trx, ctx, tenant, payload);
    if (!template) return;
    await updateRecurringTransaction(trx, tenant, template.id, {
      status: 'failed',
      failure_reason: `The run due ${payload.dueAt} failed repeatedly: ${error}`.slice(0, 500),
      next_run_at: null,
      updated_at: ctx.clock.now().toISOString(),
    });
  });
}
