import type { Insertable, Selectable, Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope, type TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { IvrTable } from '../routing.tables.js';
import type { Executor } from '../../../db/database.js';

export type IvrRow = Selectable<IvrTable>;

export interface IvrFilters {
  search?: string;
  trashed?: TrashedFilter;
}

/** What selects IVRs: the tenant, and each filter that is set (`search` as a pattern). */
interface IvrScope {
  pbxId: string;
  search?: string;
  trashed?: TrashedFilter;
}

function ivrsOf(db: Executor, scope: IvrScope) {
  let query = db.selectFrom('ivrs').where('pbx_id', '=', scope.pbxId);
  query = trashedScope(query, scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  return query;
}

const ivrPage = pagedQuery({ scoped: ivrsOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listIvrs(db: Executor, tenant: Tenant, filters: IvrFilters, sort: SortTerm[], page: PageRequest) {
  return ivrPage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

/** A live IVR of the tenant (or, with `trashed`, a deleted one too / only). */
export function findIvr(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<IvrRow | undefined> {
  return ivrsOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

// The names of `include=target` on step and IVR lists: each compiled once per number of ids.
const liveIvrNamesById = valuesQuery((db, v: { pbxId: string; ids: readonly string[] }) =>
  ivrsOf(db, { pbxId: v.pbxId }).select(['id', 'name']).where('id', 'in', v.ids),
);

/** Names of the tenant's live IVRs by id (what steps point at). */
export async function liveIvrNames(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await liveIvrNamesById(db, { pbxId: tenant.pbxId, ids });
  return new Map(rows.map((row) => [row.id, row.name]));
}

const liveCallFlowNamesById = valuesQuery((db, v: { pbxId: string; ids: readonly string[] }) =>
  db.selectFrom('call_flows').select(['id', 'name']).where('pbx_id', '=', v.pbxId).where('deleted_at', 'is', null).where('id', 'in', v.ids),
);

/** Names of the tenant's live call flows by id (what steps point at). */
export async function liveCallFlowNames(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await liveCallFlowNamesById(db, { pbxId: tenant.pbxId, ids });
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function insertIvr(db: Executor, row: Insertable<IvrTable>): Promise<void> {
  await db.insertInto('ivrs').values(row).execute();
}

export async function updateIvr(db: Executor, tenant: Tenant, id: string, changes: Updateable<IvrTable>): Promise<void> {
  await db.updateTable('ivrs').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}
