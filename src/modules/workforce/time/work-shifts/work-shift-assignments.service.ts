import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { type TrashedFilter } from '../../../../db/soft-delete.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CalendarDay } from '../../shared/index.js';
import { employeeForRead, employeeForWrite, lockEmployee, managesEmployees } from '../../organisation/index.js';
import {
  assignmentsOverlapping,
  findAssignment,
  insertAssignment,
  listAssignments,
  updateAssignment,
  type AssignmentFilters,
  type AssignmentRow,
} from './work-shift-assignments.queries.js';
import type { AssignmentInput, WorkShiftAssignmentView } from './work-shifts.schemas.js';
import { findWorkShift, workShiftsByIds } from './work-shifts.queries.js';
import { presentWorkShiftAssignment } from './work-shift-assignments.presenter.js';

export type { AssignmentRow };

const ASSIGNMENT_NOT_FOUND = 'Work shift assignment not found.';

interface Period {
  valid_from: CalendarDay;
  valid_until: CalendarDay | null;
}

const describe = (period: Period) => `${period.valid_from} to ${period.valid_until ?? 'open-ended'}`;

/** Which weekly pattern an employee works over which days; one employee's periods never overlap. */
export class WorkShiftAssignmentsService {
  constructor(private readonly ctx: AppContext) {}

  async present(tenant: Tenant, rows: AssignmentRow[], withShift: boolean): Promise<WorkShiftAssignmentView[]> {
    const shifts = withShift
      ? await workShiftsByIds(
          this.ctx.db,
          tenant,
          rows.map((row) => row.work_shift_id),
        )
      : null;
    return rows.map((row) => presentWorkShiftAssignment(row, shifts?.get(row.work_shift_id)));
  }

  async listForEmployee(tenant: Tenant, principal: Principal, employeeId: string, filters: AssignmentFilters, sort: SortTerm[], page: PageRequest) {
    const employee = await employeeForRead(this.ctx.db, tenant, principal, employeeId);
    if (filters.trashed && filters.trashed !== 'without' && !managesEmployees(principal))
      throw new Forbidden('Only an administrator of this PBX may list deleted assignments.');
    if (filters.from && filters.to && filters.to < filters.from)
      throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    return listAssignments(this.ctx.db, tenant, employee.id, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<AssignmentRow> {
    const row = await findAssignment(this.ctx.db, tenant, id, trashed);
    if (!row) throw new NotFound(ASSIGNMENT_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, employeeId: string, body: AssignmentInput & { work_shift_id: string; valid_from: CalendarDay }): Promise<AssignmentRow> {
    const employee = await employeeForWrite(this.ctx.db, tenant, employeeId);
    const period = { valid_from: body.valid_from, valid_until: body.valid_until ?? null };
    await this.checkShiftAndPeriod(tenant, body.work_shift_id, period);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.write(tenant, employee.id, id, period, (trx) =>
      insertAssignment(trx, {
        id,
        pbx_id: tenant.pbxId,
        employee_id: employee.id,
        work_shift_id: body.work_shift_id,
        ...period,
        created_at: now,
        updated_at: now,
      }),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: AssignmentInput): Promise<AssignmentRow> {
    const current = await this.get(tenant, id);
    const period = { valid_from: body.valid_from ?? current.valid_from, valid_until: body.valid_until === undefined ? current.valid_until : body.valid_until };
    await this.checkShiftAndPeriod(tenant, body.work_shift_id, period);
    await this.write(tenant, current.employee_id, id, period, (trx) =>
      updateAssignment(trx, tenant, id, {
        ...(body.work_shift_id === undefined ? {} : { work_shift_id: body.work_shift_id }),
        ...period,
        updated_at: this.ctx.clock.now().toISOString(),
      }),
    );
    return this.get(tenant, id);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await softDelete(this.ctx.db, this.ctx.clock, 'work_shift_assignments', tenant, id, ASSIGNMENT_NOT_FOUND);
  }

  /** 422 when a live assignment of the employee covers part of the restored period meanwhile. */
  async restore(tenant: Tenant, id: string): Promise<AssignmentRow> {
    const row = await this.get(tenant, id, 'only');
    await this.write(tenant, row.employee_id, id, row, (trx) => restore(trx, this.ctx.clock, 'work_shift_assignments', tenant, id, ASSIGNMENT_NOT_FOUND));
    return this.get(tenant, id);
  }

  /** A new or changed assignment names a live work shift of the PBX, and ends on or after it starts. */
  private async checkShiftAndPeriod(tenant: Tenant, workShiftId: string | undefined, period: Period): Promise<void> {
    const errors: Record<string, string[]> = {};
    if (workShiftId !== undefined && !(await findWorkShift(this.ctx.db, tenant, workShiftId)))
      errors.work_shift_id = ['The selected work shift id is invalid.'];
    if (period.valid_until !== null && period.valid_until < period.valid_from)
      errors.valid_until = ['The valid until must be a date after or equal to valid from.'];
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
  }

  /** The write, once no other live assignment of the employee shares a day with `period` (the employee locked meanwhile). */
  private async write(tenant: Tenant, employeeId: string, id: string, period: Period, work: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      await lockEmployee(trx, this.ctx.dialect, tenant, employeeId);
      const other = (await assignmentsOverlapping(trx, tenant, employeeId, period.valid_from, period.valid_until)).find((row) => row.id !== id);
      if (other)
        throw ValidationFailed.field(
          'valid_from',
          `The period ${describe(period)} overlaps the work shift assignment ${other.id} (${describe(other)}) of this employee.`,
        );
      await work(trx);
    });
  }
}
