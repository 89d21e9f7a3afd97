import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { WorkShiftTable } from '../time.tables.js';
import type { Executor } from '../../../../db/database.js';

export type WorkShiftRow = Selectable<WorkShiftTable>;

export interface WorkShiftFilters {
  search?: string;
  trashed?: TrashedFilter;
}

const WEEKLY = sql<number>`monday + tuesday + wednesday + thursday + friday + saturday + sunday`;

/** What selects work shifts: the tenant, and each filter that is set (`search` as a pattern). */
interface WorkShiftScope {
  pbxId: string;
  search?: string;
  trashed?: TrashedFilter;
}

function shiftsOf(db: Executor, scope: WorkShiftScope) {
  let query = trashedScope(db.selectFrom('work_shifts').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  return query;
}

const workShiftPage = pagedQuery({ scoped: shiftsOf, columns: (query) => query.selectAll().select(WEEKLY.as('weekly_seconds')), choices: ['trashed'] });

export function listWorkShifts(db: Kysely<DB>, tenant: Tenant, filters: WorkShiftFilters, sort: SortTerm[], page: PageRequest) {
  return workShiftPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findWorkShift(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<WorkShiftRow | undefined> {
  return shiftsOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Work shifts by id, deleted ones included (an assignment keeps the pattern it was made with). */
export async function workShiftsByIds(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, WorkShiftRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('work_shifts')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertWorkShift(db: Executor, row: Insertable<WorkShiftTable>): Promise<void> {
  await db.insertInto('work_shifts').values(row).execute();
}

export async function updateWorkShift(db: Executor, tenant: Tenant, id: string, changes: Updateable<WorkShiftTable>): Promise<void> {
  await db.updateTable('work_shifts').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
