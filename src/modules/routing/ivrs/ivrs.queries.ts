import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesSearch } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { IvrTable } from '../routing.tables.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type IvrRow = Selectable<IvrTable>;

export interface IvrFilters {
  search?: string;
  trashed?: TrashedFilter;
}

function ivrsOf(db: Executor, tenant: Tenant, filters: IvrFilters) {
  let query = db.selectFrom('ivrs').where('pbx_id', '=', tenant.pbxId);
  query = trashedScope(query, filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  return query;
}

export function listIvrs(db: Executor, tenant: Tenant, filters: IvrFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => ivrsOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

/** A live IVR of the tenant (or, with `trashed`, a deleted one too / only). */
export function findIvr(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<IvrRow | undefined> {
  return ivrsOf(db, tenant, { trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Names of the tenant's live IVRs by id (what steps point at). */
export async function liveIvrNames(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ivrsOf(db, tenant, {}).select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Names of the tenant's live call flows by id (what steps point at). */
export async function liveCallFlowNames(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('call_flows')
    .select(['id', 'name'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function insertIvr(db: Executor, row: Insertable<IvrTable>): Promise<void> {
  await db.insertInto('ivrs').values(row).execute();
}

export async function updateIvr(db: Executor, tenant: Tenant, id: string, changes: Updateable<IvrTable>): Promise<void> {
  await db.updateTable('ivrs').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}
