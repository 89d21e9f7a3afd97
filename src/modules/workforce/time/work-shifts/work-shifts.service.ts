import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { type TrashedFilter } from '../../../../db/soft-delete.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound } from '../../../../platform/errors.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { guardUnique } from '../../../../platform/unique.js';
import { managesEmployees } from '../../organisation/index.js';
import { findWorkShift, insertWorkShift, listWorkShifts, updateWorkShift, type WorkShiftFilters, type WorkShiftRow } from './work-shifts.queries.js';
import { WEEKDAYS, type WorkShiftInput } from './work-shifts.schemas.js';

export type { WorkShiftRow };

const SHIFT_NOT_FOUND = 'Work shift not found.';
const NAME_TAKEN = [{ match: 'work_shifts', field: 'name', message: 'The name has already been taken.' }];

/** Seconds of the pattern on an ISO weekday (1 = Monday). */
export function secondsOnWeekday(shift: Pick<WorkShiftRow, (typeof WEEKDAYS)[number]>, weekday: number): number {
  return shift[WEEKDAYS[weekday - 1]];
}

function dayChanges(body: WorkShiftInput): Partial<Record<(typeof WEEKDAYS)[number], number>> {
  const changes: Partial<Record<(typeof WEEKDAYS)[number], number>> = {};
  for (const day of WEEKDAYS) if (body[day] !== undefined) changes[day] = body[day];
  return changes;
}

/** The tenant's named weekly patterns. */
export class WorkShiftsService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, principal: Principal, filters: WorkShiftFilters, sort: SortTerm[], page: PageRequest) {
    if (filters.trashed && filters.trashed !== 'without' && !managesEmployees(principal))
      throw new Forbidden('Only an administrator of this PBX may list deleted work shifts.');
    return listWorkShifts(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<WorkShiftRow> {
    const row = await findWorkShift(this.ctx.db, tenant, id, trashed);
    if (!row) throw new NotFound(SHIFT_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: WorkShiftInput & { name: string }): Promise<WorkShiftRow> {
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(NAME_TAKEN, () =>
      insertWorkShift(this.ctx.db, { id, pbx_id: tenant.pbxId, name: body.name, ...dayChanges(body), created_at: now, updated_at: now }),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: WorkShiftInput): Promise<WorkShiftRow> {
    await this.get(tenant, id);
    const changes = { ...(body.name === undefined ? {} : { name: body.name }), ...dayChanges(body), updated_at: this.ctx.clock.now().toISOString() };
    await guardUnique(NAME_TAKEN, () => updateWorkShift(this.ctx.db, tenant, id, changes));
    return this.get(tenant, id);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await softDelete(this.ctx.db, this.ctx.clock, 'work_shifts', tenant, id, SHIFT_NOT_FOUND);
  }

  /** 422 when a live work shift took the name meanwhile. */
  async restore(tenant: Tenant, id: string): Promise<WorkShiftRow> {
    await guardUnique(NAME_TAKEN, () => restore(this.ctx.db, this.ctx.clock, 'work_shifts', tenant, id, SHIFT_NOT_FOUND));
    return this.get(tenant, id);
  }
}
