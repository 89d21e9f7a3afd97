import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { PlanningStatusTable } from '../scheduling.tables.js';
import type { Executor } from '../../../../db/database.js';

export type PlanningStatusRow = Selectable<PlanningStatusTable>;

/** The live statuses of the tenant: statuses by name, each followed by its sub-statuses by name. */
export async function listPlanningStatuses(db: Executor, tenant: Tenant): Promise<PlanningStatusRow[]> {
  const rows = await db
    .selectFrom('planning_statuses')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const children = (parent: string) => rows.filter((row) => row.parent_id === parent);
  return rows.filter((row) => row.parent_id === null).flatMap((status) => [status, ...children(status.id)]);
}

export function findPlanningStatus(db: Executor, tenant: Tenant, id: string): Promise<PlanningStatusRow | undefined> {
  return db
    .selectFrom('planning_statuses')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Statuses by id, deleted ones included (a schedule or entry keeps showing the name it was given). */
export async function planningStatusesByIds(db: Executor, tenant: Tenant, ids: Iterable<string | null>): Promise<Map<string, PlanningStatusRow>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('planning_statuses').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertPlanningStatus(db: Executor, row: Insertable<PlanningStatusTable>): Promise<void> {
  await db.insertInto('planning_statuses').values(row).execute();
}

export async function updatePlanningStatus(db: Executor, tenant: Tenant, id: string, changes: Updateable<PlanningStatusTable>): Promise<void> {
  await db.updateTable('planning_statuses').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** Soft-deletes a status with its sub-statuses. */
export async function deletePlanningStatus(db: Executor, tenant: Tenant, id: string, now: string): Promise<void> {
  await db
    .updateTable('planning_statuses')
    .set({ deleted_at: now, updated_at: now })
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]))
    .execute();
}
