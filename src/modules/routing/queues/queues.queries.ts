import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Executor } from '../../../db/database.js';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import { valuesQuery } from '../../../db/values-query.js';
import { trashedScope, type TrashedFilter } from '../../../db/soft-delete.js';
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

/** What selects queues: the tenant, and each filter that is set (`search` as a pattern). */
interface QueueScope {
  pbxId: string;
  search?: string;
  strategy?: string;
  memberId?: string;
  trashed?: TrashedFilter;
}

function queuesOf(db: Kysely<DB>, scope: QueueScope) {
  let query = trashedScope(db.selectFrom('queues').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.strategy) query = query.where('strategy', '=', scope.strategy as QueueRow['strategy']);
  if (scope.memberId) {
    const memberId = scope.memberId;
    query = query.where('id', 'in', (eb) =>
      eb.selectFrom('queue_members').select('queue_id').where('pbx_id', '=', scope.pbxId).where('member_id', '=', memberId),
    );
  }
  return query;
}

const queuePage = pagedQuery({ scoped: queuesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listQueues(db: Kysely<DB>, tenant: Tenant, filters: QueueFilters, sort: SortTerm[], page: PageRequest) {
  return queuePage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findQueue(db: Kysely<DB>, tenant: Tenant, id: string, options: { trashed?: TrashedFilter } = {}): Promise<QueueRow | undefined> {
  return queuesOf(db, { pbxId: tenant.pbxId, trashed: options.trashed ?? 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertQueue(db: Kysely<DB>, row: Insertable<QueueTable>): Promise<void> {
  await db.insertInto('queues').values(row).execute();
}

/** The names of the tenant's queues by id, deleted ones included (the calls domain names the queue that rang a receiver). */
export async function queueNamesOf(db: Executor, tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter(Boolean))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('queues').select(['id', 'name']).where('pbx_id', '=', tenant.pbxId).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function updateQueue(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<QueueTable>): Promise<void> {
  await db.updateTable('queues').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

// A page's members and their `include`d users and extensions: each compiled once per number of ids.
const membersOfQueueIds = valuesQuery((db, v: { pbxId: string; queueIds: readonly string[] }) =>
  db.selectFrom('queue_members').selectAll().where('pbx_id', '=', v.pbxId).where('queue_id', 'in', v.queueIds).orderBy('queue_id').orderBy('position'),
);

/** The members of these queues, each queue's in ring order. */
export function membersOfQueues(db: Kysely<DB>, tenant: Tenant, queueIds: string[]): Promise<QueueMemberRow[]> {
  if (queueIds.length === 0) return Promise.resolve([]);
  return membersOfQueueIds(db, { pbxId: tenant.pbxId, queueIds });
}

/** The queue's whole member list is replaced by `members` (already in ring order). */
export async function replaceMembers(db: Kysely<DB>, tenant: Tenant, queueId: string, members: Array<Insertable<QueueMemberTable>>): Promise<void> {
  await db.deleteFrom('queue_members').where('queue_id', '=', queueId).where('pbx_id', '=', tenant.pbxId).execute();
  if (members.length > 0) await db.insertInto('queue_members').values(members).execute();
}

/** Of these ids, those naming a live user of the PBX (extensions: the directory's `liveExtensionIds`). */
export async function liveUserIds(db: Kysely<DB>, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('pbx_id', '=', tenant.pbxId).where('deleted_at', 'is', null).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

const usersById = valuesQuery((db, v: { pbxId: string; ids: readonly string[] }) =>
  db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('pbx_id', '=', v.pbxId).where('id', 'in', v.ids),
);

/** Summaries of the tenant's users by id (deleted ones included: a member may outlive its user). */
export async function memberUsers(db: Kysely<DB>, tenant: Tenant, ids: string[]) {
  if (ids.length === 0) return new Map<string, { id: string; first_name: string; last_name: string; email: string }>();
  const rows = await usersById(db, { pbxId: tenant.pbxId, ids });
  return new Map(rows.map((row) => [row.id, row]));
}
