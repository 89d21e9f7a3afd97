import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { PlanningEntryTable, ScheduleTable } from '../scheduling.tables.js';
import type { Executor } from '../../../../db/database.js';

export type ScheduleRow = Selectable<ScheduleTable>;
export type PlanningEntryRow = Selectable<PlanningEntryTable>;

/** A JSON array of ids as a schedule stores them (`status_filters`). */
export const parseIds = (json: string) => JSON.parse(json) as string[];

export interface ScheduleFilters {
  search?: string;
  isActive?: boolean;
}

/** What selects live schedules: the tenant, and each filter that is set (`search` as a pattern). */
interface ScheduleScope {
  pbxId: string;
  search?: string;
  isActive?: boolean;
}

function schedulesOf(db: Executor, scope: ScheduleScope) {
  let query = db.selectFrom('schedules').where('pbx_id', '=', scope.pbxId).where('deleted_at', 'is', null);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.isActive !== undefined) query = query.where('is_active', '=', scope.isActive ? 1 : 0);
  return query;
}

const schedulePage = pagedQuery({ scoped: schedulesOf, columns: (query) => query.selectAll() });

export function listSchedules(db: Kysely<DB>, tenant: Tenant, filters: ScheduleFilters, sort: SortTerm[], page: PageRequest) {
  return schedulePage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findSchedule(db: Executor, tenant: Tenant, id: string): Promise<ScheduleRow | undefined> {
  return schedulesOf(db, { pbxId: tenant.pbxId }).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSchedule(db: Executor, row: Insertable<ScheduleTable>): Promise<void> {
  await db.insertInto('schedules').values(row).execute();
}

export async function updateSchedule(db: Executor, tenant: Tenant, id: string, changes: Updateable<ScheduleTable>): Promise<void> {
  await db.updateTable('schedules').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** The selected ids of each schedule, in the order given. */
export async function scopeItems(db: Executor, scheduleIds: readonly string[]): Promise<Map<string, string[]>> {
  const items = new Map<string, string[]>(scheduleIds.map((id) => [id, []]));
  if (scheduleIds.length === 0) return items;
  const rows = await db
    .selectFrom('schedule_scope_items')
    .selectAll()
    .where('schedule_id', 'in', [...scheduleIds])
    .orderBy('position')
    .execute();
  for (const row of rows) items.get(row.schedule_id)?.push(row.target_id);
  return items;
}

export async function replaceScopeItems(db: Executor, scheduleId: string, targetIds: readonly string[]): Promise<void> {
  await db.deleteFrom('schedule_scope_items').where('schedule_id', '=', scheduleId).execute();
  if (targetIds.length)
    await db
      .insertInto('schedule_scope_items')
      .values(targetIds.map((target_id, position) => ({ schedule_id: scheduleId, target_id, position })))
      .execute();
}

export function entriesOfSchedule(db: Executor, tenant: Tenant, scheduleId: string, from: string, to: string): Promise<PlanningEntryRow[]> {
  return db
    .selectFrom('planning_entries')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('schedule_id', '=', scheduleId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .orderBy('start_time')
    .orderBy('id')
    .execute();
}

export function findEntry(db: Executor, tenant: Tenant, scheduleId: string, id: string): Promise<PlanningEntryRow | undefined> {
  return db
    .selectFrom('planning_entries')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('schedule_id', '=', scheduleId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The employee's entries on `day` in live schedules of the tenant that overlap start..end. */
export function overlappingEntries(db: Executor, tenant: Tenant, employeeId: string, day: string, start: string, end: string): Promise<PlanningEntryRow[]> {
  return db
    .selectFrom('planning_entries as p')
    .innerJoin('schedules as s', 's.id', 'p.schedule_id')
    .selectAll('p')
    .where('p.pbx_id', '=', tenant.pbxId)
    .where('s.deleted_at', 'is', null)
    .where('p.employee_id', '=', employeeId)
    .where('p.day', '=', day)
    .where('p.start_time', '<', end)
    .where('p.end_time', '>', start)
    .execute();
}

export async function insertEntry(db: Executor, row: Insertable<PlanningEntryTable>): Promise<void> {
  await db.insertInto('planning_entries').values(row).execute();
}

export async function updateEntry(db: Executor, tenant: Tenant, id: string, changes: Updateable<PlanningEntryTable>): Promise<void> {
  await db.updateTable('planning_entries').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

export async function deleteEntry(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('planning_entries').where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}
