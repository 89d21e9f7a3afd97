/**
 * The moves of a ledger row. The contract shows the states; the moves are ours:
 *   pending -> accepted    every validator's entry accepted (the last one debits the balance)
 *   pending -> rejected    one entry rejected
 *   pending -> canceled    by the employee (or an administrator) while pending
 *   accepted -> pending_removal   the employee asks to take it back: a removal row (sub_type
 *                          removal, its own validators) is created pending
 *   removal row accepted -> the request is removed and its balance credited back;
 *   removal row rejected or canceled -> the request is accepted again.
 * A validator decides its own entry; an administrator or the PBX key decides every entry still
 * pending at once. Nobody decides a request of their own (absence-request.policy.ts). Each move
 * runs in one transaction with the row locked, so concurrent decisions cannot debit twice, and
 * answers the row as it wrote it, with its validator entries, for the presenter.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import { recordAudit } from '../../../../platform/audit/audit.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { findContract } from '../../time/index.js';
import type { StoredAbsenceStatus } from '../absences.tables.js';
import { canDecide, canSee, canWithdraw, entriesDecidedBy, type AbsenceActor } from './absence-request.policy.js';
import {
  decideValidators,
  findAbsenceRequest,
  findLoadedAbsence,
  pendingRemovalOf,
  updateAbsenceRequest,
  type AbsenceTableRow,
  type LoadedAbsence,
} from './absence-requests.queries.js';
import { exposedType, periodOf, requestedTimeOf } from './absence-requests.presenter.js';
import { validatorPlan } from './approvals.js';
import { creditBalance, debitBalance } from './balances.js';
import { insertLedgerRows, ledgerRow } from './ledger-writes.js';
import { ABSENCE_NOT_FOUND } from './absence-requests.service.js';
import { publishAbsenceDecision } from './absence-requests.events.js';

type Decision = 'accepted' | 'rejected';

const SHOWN: Record<StoredAbsenceStatus, string> = {
  pending: 'pending',
  approved: 'accepted',
  rejected: 'rejected',
  cancelled: 'canceled',
  pending_removal: 'pending removal',
  removed: 'removed',
};

function notPending(row: AbsenceTableRow, move: string): ValidationFailed {
  const hint = row.status === 'pending_removal' ? ' Its removal is decided on the removal request.' : '';
  return ValidationFailed.field('status', `Only a pending request can be ${move}; this one is ${SHOWN[row.status]}.${hint}`);
}

export class AbsenceMovesService {
  constructor(private readonly ctx: AppContext) {}

  approve(tenant: Tenant, principal: Principal, actor: AbsenceActor, id: string) {
    return this.decide(tenant, principal, actor, id, 'accepted');
  }

  reject(tenant: Tenant, principal: Principal, actor: AbsenceActor, id: string) {
    return this.decide(tenant, principal, actor, id, 'rejected');
  }

  /** Runs a move on the locked row; the caller must see the row (else 404, as for a read). */
  private async move<T>(
    tenant: Tenant,
    actor: AbsenceActor,
    id: string,
    run: (trx: Transaction<DB>, row: LoadedAbsence, now: string) => Promise<T>,
  ): Promise<T> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const row = await findLoadedAbsence(trx, tenant, id, this.ctx.dialect);
      if (!row || !canSee(actor, row)) throw new NotFound(ABSENCE_NOT_FOUND);
      if (row.adjustment)
        throw ValidationFailed.field(
          'status',
          'This row is a balance adjustment written by a recurring transaction, not a request: it cannot be approved, rejected, canceled or taken back.',
        );
      return run(trx, row, this.ctx.clock.now().toISOString());
    });
  }

  private decide(tenant: Tenant, principal: Principal, actor: AbsenceActor, id: string, decision: Decision): Promise<LoadedAbsence> {
    return this.move(tenant, actor, id, async (trx, row, now) => {
      if (!canDecide(actor, row)) throw new Forbidden('You may not decide a request of your own.');
      if (row.status !== 'pending') throw notPending(row, decision === 'accepted' ? 'approved' : 'rejected');
      const mine = entriesDecidedBy(actor, row.validators);
      if (mine.length === 0) throw ValidationFailed.field('status', 'You have already decided this request.');
      const decided = { status: decision, decided_by_user_id: principal.kind === 'user' ? principal.userId : null, decided_at: now };
      await decideValidators(
        trx,
        tenant,
        mine.map((entry) => entry.id),
        decided,
      );
      const settled = new Set(mine.map((entry) => entry.id));
      const validators = row.validators.map((entry) => (settled.has(entry.id) ? { ...entry, ...decided } : entry));
      const allAccepted = validators.every((entry) => entry.status === 'accepted');
      const closed =
        decision === 'rejected'
          ? await this.close(trx, tenant, principal, row, 'rejected', now)
          : allAccepted
            ? await this.close(trx, tenant, principal, row, 'approved', now)
            : {};
      // A decision of the request (not one validator's of several) is its live event.
      if (decision === 'rejected' || allAccepted) await this.published(trx, tenant, row, decision === 'rejected' ? 'rejected' : 'approved');
      return { ...row, ...closed, validators };
    });
  }

  /** The final decision: the row's status, and for a removal row what it does to its request. Answers the row's changes. */
  private async close(trx: Transaction<DB>, tenant: Tenant, principal: Principal, row: AbsenceTableRow, status: 'approved' | 'rejected', now: string) {
    const removed = row.removal_of_id ? await findAbsenceRequest(trx, tenant, row.removal_of_id) : undefined;
    let debited: number | null = null;
    if (removed) {
      if (status === 'approved') await creditBalance(trx, tenant, removed);
      // An approved removal removes the request; a refused one leaves it accepted as it was decided.
      await updateAbsenceRequest(
        trx,
        tenant,
        removed.id,
        status === 'approved' ? { status: 'removed', decided_at: now, updated_at: now } : { status: 'approved', updated_at: now },
      );
    } else if (status === 'approved') {
      debited = await debitBalance(trx, tenant, row);
    }
    const changes = { status, decided_at: now, updated_at: now, ...(debited === null ? {} : { balance_debited: debited }) };
    await updateAbsenceRequest(trx, tenant, row.id, changes);
    await recordAudit(trx, this.ctx.clock, {
      tenant,
      principal,
      action: `absence_request.${removed ? (status === 'approved' ? 'removal_approved' : 'removal_rejected') : status}`,
      subject: { type: 'absence_request', id: removed?.id ?? row.id },
      details: { type: exposedType(row.type), working_days: row.working_days, balance_debited: debited },
    });
    return changes;
  }

  /** The decision's live event (absence-requests.events.ts), to the row's employee and validators. */
  private published(trx: Transaction<DB>, tenant: Tenant, row: LoadedAbsence, decision: 'requested' | 'approved' | 'rejected' | 'canceled') {
    return publishAbsenceDecision(
      this.ctx,
      trx,
      tenant,
      row,
      row.validators.map((entry) => entry.employee_id),
      decision,
    );
  }

  /** The employee (or an administrator) withdraws a request still pending; a removal row withdrawn leaves its request accepted. */
  cancel(tenant: Tenant, actor: AbsenceActor, id: string): Promise<LoadedAbsence> {
    return this.move(tenant, actor, id, async (trx, row, now) => {
      if (!canWithdraw(actor, row)) throw new Forbidden('Only the employee or an administrator may cancel a request.');
      if (row.status !== 'pending') throw notPending(row, 'canceled');
      if (row.removal_of_id) await updateAbsenceRequest(trx, tenant, row.removal_of_id, { status: 'approved', updated_at: now });
      const changes = { status: 'cancelled', decided_at: now, updated_at: now } as const;
      await updateAbsenceRequest(trx, tenant, row.id, changes);
      await this.published(trx, tenant, row, 'canceled');
      return { ...row, ...changes };
    });
  }

  /**
   * The employee (or an administrator) asks to take an accepted request back: it becomes
   * pending_removal and a removal row, decided like a request by the current validators, is
   * created. Answers the removal row.
   */
  async requestRemoval(tenant: Tenant, principal: Principal, actor: AbsenceActor, id: string): Promise<LoadedAbsence> {
    const target = await findAbsenceRequest(this.ctx.db, tenant, id);
    // The validators the request's contract's department names now decide the removal; the amounts are the request's own.
    const contract = target?.contract_id ? await findContract(this.ctx.db, tenant, target.contract_id) : undefined;
    const plan = target ? await validatorPlan(this.ctx.db, tenant, target.employee_id, contract?.department_id) : [];
    return this.move(tenant, actor, id, async (trx, row, now) => {
      if (!canWithdraw(actor, row)) throw new Forbidden('Only the employee or an administrator may take a request back.');
      if (row.removal_of_id) throw ValidationFailed.field('status', 'A removal request cannot itself be taken back; cancel it while it is pending.');
      if (row.status === 'pending_removal') {
        const pending = await pendingRemovalOf(trx, tenant, row.id);
        throw ValidationFailed.field('status', `A removal of this request is already pending${pending ? `: ${pending.id}` : ''}.`);
      }
      if (row.status !== 'approved')
        throw ValidationFailed.field(
          'status',
          `Only an accepted request can be taken back; this one is ${SHOWN[row.status]}${row.status === 'pending' ? ': cancel it instead' : ''}.`,
        );
      const period = periodOf(row);
      const removal = ledgerRow(tenant, row.employee_id, principal, now, {
        type: row.type,
        period,
        amounts: {
          requestedTime: requestedTimeOf(row),
          workingDays: row.working_days,
          totalSeconds: row.total_seconds,
          workshiftSecondsPerDay: row.workshift_seconds_per_day,
        },
        contract: undefined,
        startTime: row.start_time,
        endTime: row.end_time,
        halfDayPart: row.half_day_part,
        comment: row.comment,
        requestGroupId: row.request_group_id,
        plan,
      });
      await insertLedgerRows(
        trx,
        this.ctx.dialect,
        tenant,
        row.employee_id,
        [{ row: { ...removal, sub_type: 'removal', removal_of_id: row.id, company_id: row.company_id, contract_id: row.contract_id }, plan }],
        () => undefined,
      );
      await updateAbsenceRequest(trx, tenant, row.id, { status: 'pending_removal', updated_at: now });
      // The removal row as the database wrote it (its defaults, its validator entries).
      const written = await findLoadedAbsence(trx, tenant, removal.id);
      if (!written) throw new Error(`removal row ${removal.id} not written`);
      await this.published(trx, tenant, written, 'requested');
      return written;
    });
  }
}
