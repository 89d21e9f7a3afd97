import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { fetchPage, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesSearch } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../http/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { QueueMemberTable, QueueTable } from '../routing.tables.js';

export type QueueRow = Selectable<QueueTable>;
export type QueueMemberRow = Selectable<QueueMemberTable>;

export interface QueueFilters {
  search?: string;
  strategy?: string;
  memberId?: string;
  trashed?: TrashedFilter;
}

function queuesOf(db: Kysely<DB>, tenant: Tenant, filters: QueueFilters) {
  let query = trashedScope(db.selectFrom('queues').where('pbx_id', '=', tenant.pbxId), filters.trashed);
  if (filters.search) query = query.where(matchesSearch(['name'], filters.search));
  if (filters.strategy) query = query.where('strategy', '=', filters.strategy as QueueRow['strategy']);
  if (filters.memberId) {
    const memberId = filters.memberId;
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('queue_members').select('queue_id').where('pbx_id', '=', tenant.pbxId).where('member_id', '=', memberId),
    );
  }
  return query;
}

export function listQueues(db: Kysely<DB>, tenant: Tenant, filters: QueueFilters, sort: SortTerm[], page: PageRequest) {
  return fetchPage(
    () => queuesOf(db, tenant, filters),
    (query) => query.selectAll(),
    sort,
    page,
  );
}

export function findQueue(db: Kysely<DB>, tenant: Tenant, id: string, options: { trashed?: TrashedFilter } = {}): Promise<QueueRow | undefined> {
  return queuesOf(db, tenant, { trashed: options.trashed ?? 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertQueue(db: Kysely<DB>, row: Insertable<QueueTable>): Promise<void> {
  await db.insertInto('queues').values(row).execute();
}

export async function updateQueue(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<QueueTable>): Promise<void> {
  await db.updateTable('queues').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** The members of these queues, each queue's in ring order. */
export function membersOfQueues(db: Kysely<DB>, tenant: Tenant, queueIds: string[]): Promise<QueueMemberRow[]> {
  if (queueIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('queue_members')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('queue_id', 'in', queueIds)
    .orderBy('queue_id')
    .orderBy('position')
    .execute();
}

/** The queue's whole member list is replaced by `members` (already in ring order). */
export async function replaceMembers(db: Kysely<DB>, tenant: Tenant, queueId: string, members: Array<Insertable<QueueMemberTable>>): Promise<void> {
  await db.deleteFrom('queue_members').where('queue_id', '=', queueId).where('pbx_id', '=', tenant.pbxId).execute();
  if (members.length > 0) await db.insertInto('queue_members').values(members).execute();
}

/** Of these ids, those naming a live row of the PBX in `table` (users or extensions). */
export async function liveIds(db: Kysely<DB>, tenant: Tenant, table: 'users' | 'extensions', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('id').where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** Summaries of the tenant's users by id (deleted ones included: a member may outlive its user). */
export async function memberUsers(db: Kysely<DB>, tenant: Tenant, ids: string[]) {
  if (ids.length === 0) return new Map<string, { id: string; first_name: string; last_name: string; email: string }>();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Summaries of the tenant's extensions by id (deleted ones included). */
export async function memberExtensions(db: Kysely<DB>, tenant: Tenant, ids: string[]) {
  if (ids.length === 0) return new Map<string, { id: string; number: string; name: string }>();
  const rows = await db.selectFrom('extensions').select(['id', 'number', 'name']).where('pbx_id', '=', tenant.pbxId).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}
