import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { guardUnique } from '../../../../platform/unique.js';
import {
  deletePlanningStatus,
  findPlanningStatus,
  insertPlanningStatus,
  listPlanningStatuses,
  updatePlanningStatus,
  type PlanningStatusRow,
} from './planning-statuses.queries.js';
import type { CreatePlanningStatusInput, UpdatePlanningStatusInput } from './planning-statuses.schemas.js';

export type { PlanningStatusRow };

const NOT_FOUND = 'Planning status not found.';
const NAME_TAKEN = [{ match: 'planning_statuses', field: 'name', message: 'The name has already been taken.' }];

/** The tenant's planning statuses: what schedules and their entries are marked with. */
export class PlanningStatusesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant): Promise<PlanningStatusRow[]> {
    return listPlanningStatuses(this.ctx.db, tenant);
  }

  async get(tenant: Tenant, id: string): Promise<PlanningStatusRow> {
    const row = await findPlanningStatus(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: CreatePlanningStatusInput): Promise<PlanningStatusRow> {
    const parentId = body.parentId ?? null;
    if (parentId) {
      const parent = await findPlanningStatus(this.ctx.db, tenant, parentId);
      if (!parent) throw ValidationFailed.field('parentId', 'The selected parentId is invalid.');
      if (parent.parent_id !== null) throw ValidationFailed.field('parentId', 'A sub-status cannot have sub-statuses of its own.');
    }
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(NAME_TAKEN, () =>
      insertPlanningStatus(this.ctx.db, {
        id,
        pbx_id: tenant.pbxId,
        parent_id: parentId,
        name: body.name,
        color: body.color ?? null,
        created_at: now,
        updated_at: now,
      }),
    );
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: UpdatePlanningStatusInput): Promise<PlanningStatusRow> {
    await this.get(tenant, id);
    const changes = { ...(body.name === undefined ? {} : { name: body.name }), ...(body.color === undefined ? {} : { color: body.color }) };
    await guardUnique(NAME_TAKEN, () => updatePlanningStatus(this.ctx.db, tenant, id, { ...changes, updated_at: this.ctx.clock.now().toISOString() }));
    return this.get(tenant, id);
  }

  /** Soft delete, with its sub-statuses; schedules and entries keep naming it. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.get(tenant, id);
    await deletePlanningStatus(this.ctx.db, tenant, id, this.ctx.clock.now().toISOString());
  }
}
