import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { companiesByIds, departmentsByIds, employeeNamesByIds, liveIdsIn, nameOrderOf, tenantToday } from '../../organisation/index.js';
import { findPlanningStatus, planningStatusesByIds } from '../planning-statuses/planning-statuses.queries.js';
import type { ScopeType } from '../scheduling.tables.js';
import { resolvePools } from './schedule-pool.js';
import { checkWindow } from './schedule-rules.js';
import {
  findSchedule,
  insertSchedule,
  listSchedules,
  replaceScopeItems,
  scopeItems,
  updateSchedule,
  parseIds,
  type ScheduleFilters,
  type ScheduleRow,
} from './schedules.queries.js';
import { presentSchedule } from './schedules.presenter.js';
import type { AssignableEmployeeView, ScheduleView, UpdateScheduleInput } from './schedules.schemas.js';

export type { ScheduleRow };

const NOT_FOUND = 'Schedule not found.';
const SCOPE_KEY: Record<ScopeType, 'companies' | 'departments' | 'employees'> = { company: 'companies', department: 'departments', employees: 'employees' };
const WORKDAYS = [1, 2, 3, 4, 5];

/** Schedules: their settings, their scope, and who they may assign. */
export class SchedulesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: ScheduleFilters, sort: SortTerm[], page: PageRequest) {
    return listSchedules(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<ScheduleRow> {
    const row = await findSchedule(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** The assignable pool of one schedule, ordered by name. */
  async assignable(tenant: Tenant, schedule: ScheduleRow): Promise<AssignableEmployeeView[]> {
    const items = await scopeItems(this.ctx.db, [schedule.id]);
    const [pool] = await resolvePools(this.ctx.db, tenant, await tenantToday(this.ctx, tenant), await nameOrderOf(this.ctx.db, tenant), [
      { scopeType: schedule.scope_type, targetIds: items.get(schedule.id) ?? [] },
    ]);
    return pool.employees;
  }

  /** Schedules as the contract shows them, relations resolved, for a page at a time. */
  async present(tenant: Tenant, rows: ScheduleRow[]): Promise<ScheduleView[]> {
    if (rows.length === 0) return [];
    const db = this.ctx.db;
    const [items, order, today] = await Promise.all([
      scopeItems(
        db,
        rows.map((r) => r.id),
      ),
      nameOrderOf(db, tenant),
      tenantToday(this.ctx, tenant),
    ]);
    const targets = (type: ScopeType) => rows.filter((r) => r.scope_type === type).flatMap((r) => items.get(r.id) ?? []);
    const [pools, companies, departments, people, statuses] = await Promise.all([
      resolvePools(
        db,
        tenant,
        today,
        order,
        rows.map((r) => ({ scopeType: r.scope_type, targetIds: items.get(r.id) ?? [] })),
      ),
      companiesByIds(db, tenant, targets('company')),
      departmentsByIds(db, tenant, targets('department')),
      employeeNamesByIds(db, tenant, targets('employees')),
      planningStatusesByIds(
        db,
        tenant,
        rows.flatMap((r) => [r.status_id, r.sub_status_id]),
      ),
    ]);
    const lookups = { order, companies, departments, people: new Map(people.map((p) => [p.id, p])), statuses };
    return rows.map((row, index) => presentSchedule(row, items.get(row.id) ?? [], pools[index], lookups));
  }

  async create(tenant: Tenant, body: UpdateScheduleInput & { name: string; scope: NonNullable<UpdateScheduleInput['scope']> }): Promise<ScheduleRow> {
    const scopeType = body.scopeType ?? 'department';
    const settings = {
      days_of_week: body.daysOfWeek ?? WORKDAYS,
      day_start_time: body.dayStartTime ?? null,
      day_end_time: body.dayEndTime ?? null,
      slot_duration_minutes: body.slotDurationMinutes ?? this.ctx.config.scheduleSlotMinutes,
      status_id: body.statusId ?? null,
      sub_status_id: body.subStatusId ?? null,
      status_filters: body.statusFilters ?? [],
    };
    const targets = await this.checkScope(tenant, scopeType, body.scope);
    await this.checkSettings(tenant, settings);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertSchedule(trx, {
        id,
        pbx_id: tenant.pbxId,
        name: body.name,
        scope_type: scopeType,
        ...settings,
        days_of_week: JSON.stringify([...settings.days_of_week].sort((a, b) => a - b)),
        status_filters: JSON.stringify(settings.status_filters),
        is_active: body.isActive === false ? 0 : 1,
        created_at: now,
        updated_at: now,
      });
      await replaceScopeItems(trx, id, targets);
    });
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: UpdateScheduleInput): Promise<ScheduleRow> {
    const row = await this.get(tenant, id);
    const scopeType = body.scopeType ?? row.scope_type;
    if (body.scopeType !== undefined && body.scopeType !== row.scope_type && body.scope === undefined)
      throw ValidationFailed.field('scope', `Changing scopeType needs the scope's ${SCOPE_KEY[scopeType]}.`);
    const targets = body.scope === undefined ? undefined : await this.checkScope(tenant, scopeType, body.scope);
    const settings = {
      days_of_week: body.daysOfWeek ?? (JSON.parse(row.days_of_week) as number[]),
      day_start_time: body.dayStartTime === undefined ? row.day_start_time : body.dayStartTime,
      day_end_time: body.dayEndTime === undefined ? row.day_end_time : body.dayEndTime,
      slot_duration_minutes: body.slotDurationMinutes ?? row.slot_duration_minutes,
      status_id: body.statusId === undefined ? row.status_id : body.statusId,
      sub_status_id: body.subStatusId === undefined ? (body.statusId === undefined ? row.sub_status_id : null) : body.subStatusId,
      status_filters: body.statusFilters ?? parseIds(row.status_filters),
    };
    await this.checkSettings(tenant, settings, {
      statusesChanged: body.statusId !== undefined || body.subStatusId !== undefined,
      filtersChanged: body.statusFilters !== undefined,
    });
    await this.ctx.db.transaction().execute(async (trx) => {
      await updateSchedule(trx, tenant, id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        scope_type: scopeType,
        ...settings,
        days_of_week: JSON.stringify([...settings.days_of_week].sort((a, b) => a - b)),
        status_filters: JSON.stringify(settings.status_filters),
        ...(body.isActive === undefined ? {} : { is_active: body.isActive ? 1 : 0 }),
        updated_at: this.ctx.clock.now().toISOString(),
      });
      if (targets) await replaceScopeItems(trx, id, targets);
    });
    return this.get(tenant, id);
  }

  /** Soft delete: the schedule and its entries leave every list and grid. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.get(tenant, id);
    const now = this.ctx.clock.now().toISOString();
    await updateSchedule(this.ctx.db, tenant, id, { deleted_at: now, updated_at: now });
  }

  /** The selected ids of the scope type: at least one, each a live row of the tenant; the other lists empty. */
  private async checkScope(tenant: Tenant, scopeType: ScopeType, scope: NonNullable<UpdateScheduleInput['scope']>): Promise<string[]> {
    const key = SCOPE_KEY[scopeType];
    for (const other of Object.values(SCOPE_KEY))
      if (other !== key && (scope[other]?.length ?? 0) > 0)
        throw ValidationFailed.field(`scope.${other}`, `Only scope.${key} may be given for scopeType ${scopeType}.`);
    const ids = scope[key] ?? [];
    if (ids.length === 0) throw ValidationFailed.field(`scope.${key}`, `Select at least one for scopeType ${scopeType}.`);
    const live = await liveIdsIn(this.ctx.db, tenant, key, ids);
    const unknown = ids.filter((id) => !live.has(id));
    if (unknown.length) throw ValidationFailed.field(`scope.${key}`, `Not found in this PBX: ${unknown.join(', ')}.`);
    return ids;
  }

  private async checkSettings(
    tenant: Tenant,
    settings: {
      day_start_time: string | null;
      day_end_time: string | null;
      slot_duration_minutes: number;
      status_id: string | null;
      sub_status_id: string | null;
      status_filters: string[];
    },
    changed = { statusesChanged: true, filtersChanged: true },
  ): Promise<void> {
    checkWindow(settings.day_start_time, settings.day_end_time, settings.slot_duration_minutes);
    if (changed.statusesChanged) await checkStatusPair(this.ctx, tenant, settings.status_id, settings.sub_status_id, 'statusId', 'subStatusId');
    if (changed.filtersChanged)
      for (const id of settings.status_filters) {
        const status = await findPlanningStatus(this.ctx.db, tenant, id);
        if (!status || status.parent_id !== null) throw ValidationFailed.field('statusFilters', `Not a live status of this PBX: ${id}.`);
      }
  }
}

/** A live status of the tenant, and a live sub-status of it (either may be null; a sub-status needs its status). */
export async function checkStatusPair(
  ctx: AppContext,
  tenant: Tenant,
  statusId: string | null,
  subStatusId: string | null,
  statusField: string,
  subField: string,
): Promise<void> {
  if (statusId !== null) {
    const status = await findPlanningStatus(ctx.db, tenant, statusId);
    if (!status || status.parent_id !== null) throw ValidationFailed.field(statusField, `The selected ${statusField} is not a live status of this PBX.`);
  }
  if (subStatusId !== null) {
    const sub = await findPlanningStatus(ctx.db, tenant, subStatusId);
    if (!sub || sub.parent_id === null || sub.parent_id !== statusId)
      throw ValidationFailed.field(subField, `The selected ${subField} is not a live sub-status of ${statusField}.`);
  }
}
