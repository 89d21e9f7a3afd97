import { sql, type Insertable, type Selectable, type SqlBool, type Expression } from 'kysely';
import { likePattern } from '../../../db/search.js';
import { shapedQuery, type Placeholder } from '../../../db/reusable-query.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CdrParticipantTable, CdrRecordingTable, CdrStatus, CdrTable, CdrType } from '../calls.tables.js';
import type { Executor } from '../../../db/database.js';

export type CdrRow = Selectable<CdrTable>;
export type RecordingRow = Selectable<CdrRecordingTable>;
/** A call with its id as exact decimal text. */
export type CdrDetailRow = Omit<CdrRow, 'cdr_id'> & { cdr_id: string };

/** Which calls a principal may see: every call of the PBX, those involving some users, or none. */
export type CdrScope = { kind: 'all' } | { kind: 'users'; userIds: string[] } | { kind: 'none' };

export interface CdrFilters {
  from?: string;
  to?: string;
  type?: CdrType;
  status?: CdrStatus;
  userId?: string;
  internal?: boolean;
  withRecording?: boolean;
  search?: string;
}

/** A position in the history: the (start_time, cdr_id) of a call. */
export interface Keyset {
  startTime: string;
  /** Exact decimal text: ids are 64-bit. */
  cdrId: string;
}

/** Newest first (`desc`, the default) or oldest first, by (start_time, cdr_id). */
export type HistoryOrder = 'desc' | 'asc';

/** Which rows of the ordered history a page reads. */
export interface HistoryWindow {
  order: HistoryOrder;
  /** Only rows strictly beyond this position, in `order` (keyset paging). */
  after: Keyset | null;
  offset: number;
  limit: number;
}

/**
 * A call's id as exact decimal text. SQLite hands an integer beyond 2^53 back rounded to the
 * nearest double, so every read of `cdr_id` goes through this.
 */
const cdrIdText = (column: string) => sql<string>`cast(${sql.ref(column)} as text)`;

/** The list's columns: everything but the detail-only JSON. */
const LIST_COLUMNS = [
  'c.pbx_id',
  cdrIdText('c.cdr_id').as('cdr_id'),
  'c.type',
  'c.status',
  'c.start_time',
  'c.answer_time',
  'c.end_time',
  'c.duration',
  'c.billsec',
  'c.is_transfer_call',
  'c.is_internal',
  'c.is_conference_call',
  'c.has_recording',
  'c.caller_user_id',
  'c.caller_name',
  'c.caller_number',
  'c.receivers',
] as const;
export type CdrListRow = { cdr_id: string } & Pick<
  CdrRow,
  | 'pbx_id'
  | 'type'
  | 'status'
  | 'start_time'
  | 'answer_time'
  | 'end_time'
  | 'duration'
  | 'billsec'
  | 'is_transfer_call'
  | 'is_internal'
  | 'is_conference_call'
  | 'has_recording'
  | 'caller_user_id'
  | 'caller_name'
  | 'caller_number'
  | 'receivers'
>;

const ref = (column: string) => sql.ref(column);

/** Filter conditions on the `c` (cdrs) alias, shared by both list plans; values are the query's placeholders. */
function conditions(filters: CdrFilters, p: Placeholder): Array<Expression<SqlBool>> {
  const out: Array<Expression<SqlBool>> = [];
  if (filters.type) out.push(sql<SqlBool>`${ref('c.type')} = ${p('type')}`);
  if (filters.status) out.push(sql<SqlBool>`${ref('c.status')} = ${p('status')}`);
  if (filters.internal !== undefined) out.push(sql<SqlBool>`${ref('c.is_internal')} = ${p('internal')}`);
  if (filters.withRecording !== undefined) out.push(sql<SqlBool>`${ref('c.has_recording')} = ${p('recording')}`);
  if (filters.search) out.push(sql<SqlBool>`${ref('c.search_text')} like ${p('search')} escape '\\'`);
  return out;
}

/** Time bounds and the keyset on the driving table's (start_time, cdr_id), written so an index range serves them. */
function timeConditions(
  alias: 'c' | 'p',
  filters: CdrFilters,
  window: Pick<HistoryWindow, 'after' | 'order'> | null,
  p: Placeholder,
): Array<Expression<SqlBool>> {
  const start = ref(`${alias}.start_time`);
  const id = ref(`${alias}.cdr_id`);
  const out: Array<Expression<SqlBool>> = [];
  if (filters.from) out.push(sql<SqlBool>`${start} >= ${p('from')}`);
  if (filters.to) out.push(sql<SqlBool>`${start} <= ${p('to')}`);
  // A row-value comparison is one index range on both dialects; the equivalent `<= and (< or <)` made SQLite filter row by row (77 µs against 33 µs per page at 1M records).
  if (window?.after) {
    const beyond = window.order === 'desc' ? sql`<` : sql`>`;
    out.push(sql<SqlBool>`(${start}, ${id}) ${beyond} (${p('after_start')}, ${p('after_id')})`);
  }
  return out;
}

function participatesAny(count: number, p: Placeholder): Expression<SqlBool> {
  const ids = sql.join(Array.from({ length: count }, (_, i) => sql`${p(`peer_${i}`)}`));
  return sql<SqlBool>`exists (select 1 from cdr_participants sp where sp.pbx_id = ${ref('c.pbx_id')} and sp.cdr_id = ${ref('c.cdr_id')} and sp.user_id in (${ids}))`;
}

// The list runs on every history screen: its SQL is compiled once per combination of filters.
const historyPage = shapedQuery<CdrListRow>();
const historyCount = shapedQuery<{ total: number | string }>();

/**
 * The calls a scope and filters select, as one of two plans: when the calls of one user are asked
 * for (own calls, or the user filter), the walk follows that user's participant index; otherwise
 * the tenant's start-time index. Either way a keyset page costs the same at any depth.
 */
function historyPlan(
  db: Executor,
  tenant: Tenant,
  scope: Exclude<CdrScope, { kind: 'none' }>,
  filters: CdrFilters,
  window: Pick<HistoryWindow, 'after' | 'order'> | null,
) {
  const drivingUser = filters.userId ?? (scope.kind === 'users' && scope.userIds.length === 1 ? scope.userIds[0] : null);
  // Calls of the driving user; when it lies outside the viewer's scope, one of the scope's users must take part too.
  const peers = scope.kind === 'users' && (!drivingUser || !scope.userIds.includes(drivingUser)) ? scope.userIds : [];
  const values: Record<string, unknown> = {
    pbx: tenant.pbxId,
    user: drivingUser,
    type: filters.type,
    status: filters.status,
    internal: filters.internal ? 1 : 0,
    recording: filters.withRecording ? 1 : 0,
    search: filters.search ? likePattern(filters.search.toLowerCase()) : undefined,
    from: filters.from,
    to: filters.to,
    after_start: window?.after?.startTime,
    after_id: window?.after?.cdrId,
  };
  peers.forEach((id, i) => (values[`peer_${i}`] = id));
  const set = (['type', 'status', 'internal', 'withRecording', 'search', 'from', 'to'] as const).filter(
    (key) => filters[key] !== undefined && filters[key] !== '',
  );
  const shape = `${drivingUser ? 'user' : 'tenant'}|peers=${peers.length}|${set.join(',')}|after=${window?.after ? window.order : 'none'}`;
  const driving: 'p' | 'c' = drivingUser ? 'p' : 'c';
  const build = (p: Placeholder) => {
    const where = [...timeConditions(driving, filters, window, p), ...conditions(filters, p)];
    if (peers.length) where.push(participatesAny(peers.length, p));
    let query = drivingUser
      ? db
          .selectFrom('cdr_participants as p')
          .innerJoin('cdrs as c', (join) => join.onRef('c.pbx_id', '=', 'p.pbx_id').onRef('c.cdr_id', '=', 'p.cdr_id'))
          .where('p.pbx_id', '=', p<string>('pbx'))
          .where('p.user_id', '=', p<string>('user'))
      : db.selectFrom('cdrs as c').where('c.pbx_id', '=', p<string>('pbx'));
    for (const condition of where) query = query.where(condition);
    return query;
  };
  return { shape, values, driving, build };
}

/** One page of the history in `window.order` by (start_time, cdr_id), after a keyset position and/or an offset. */
export async function listCdrs(db: Executor, tenant: Tenant, scope: CdrScope, filters: CdrFilters, window: HistoryWindow): Promise<CdrListRow[]> {
  if (scope.kind === 'none' || window.limit <= 0) return [];
  const plan = historyPlan(db, tenant, scope, filters, window);
  const values = { ...plan.values, offset: window.offset };
  // The page size is written into the SQL (at most a page, so few shapes): SQLite plans a bound
  // LIMIT anew at every execution (see db/inline-row-limits.ts).
  return historyPage(db, `${plan.shape}|${window.order}|limit=${window.limit}|offset=${window.offset > 0}`, values, (p) => {
    const query = plan
      .build(p)
      .select(LIST_COLUMNS)
      .orderBy(`${plan.driving}.start_time`, window.order)
      .orderBy(`${plan.driving}.cdr_id`, window.order)
      .limit(sql.lit(window.limit));
    return window.offset > 0 ? query.offset(p<number>('offset')) : query;
  });
}

/** How many calls the scope and filters select. */
export async function countCdrs(db: Executor, tenant: Tenant, scope: CdrScope, filters: CdrFilters): Promise<number> {
  if (scope.kind === 'none') return 0;
  const plan = historyPlan(db, tenant, scope, filters, null);
  const [row] = await historyCount(db, plan.shape, plan.values, (p) => plan.build(p).select(sql<number>`count(*)`.as('total')));
  return Number(row?.total ?? 0);
}

export async function findCdr(db: Executor, tenant: Tenant, cdrId: string): Promise<CdrDetailRow | undefined> {
  const row = await db
    .selectFrom('cdrs')
    .selectAll()
    .select(cdrIdText('cdr_id').as('cdr_id_text'))
    .where('pbx_id', '=', tenant.pbxId)
    .where('cdr_id', '=', cdrId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { cdr_id_text: exactId, ...cdr } = row;
  return { ...cdr, cdr_id: exactId };
}

export async function participantsOf(db: Executor, tenant: Tenant, cdrId: string): Promise<string[]> {
  const rows = await db.selectFrom('cdr_participants').select('user_id').where('pbx_id', '=', tenant.pbxId).where('cdr_id', '=', cdrId).execute();
  return rows.map((row) => row.user_id);
}

export function recordingsOf(db: Executor, tenant: Tenant, cdrId: string) {
  return db.selectFrom('cdr_recordings').selectAll().where('pbx_id', '=', tenant.pbxId).where('cdr_id', '=', cdrId).execute();
}

export function findRecordingByPath(db: Executor, tenant: Tenant, path: string) {
  return db
    .selectFrom('cdr_recordings')
    .select(['pbx_id', 'kind', 'name', 'path', 'content_type', 'size_bytes', cdrIdText('cdr_id').as('cdr_id')])
    .where('pbx_id', '=', tenant.pbxId)
    .where('path', '=', path)
    .executeTakeFirst();
}

/** Stores new records and skips ids already stored; returns the ids (exact text) that were new. */
export async function insertCdrs(trx: Executor, rows: Array<Insertable<CdrTable>>): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await trx
    .insertInto('cdrs')
    .values(rows)
    .onConflict((oc) => oc.columns(['pbx_id', 'cdr_id']).doNothing())
    .returning(cdrIdText('cdr_id').as('cdr_id'))
    .execute();
  return new Set(inserted.map((row) => row.cdr_id));
}

/**
 * Writes records again (a call whose legs arrive one by one): the columns of the call are
 * replaced, its recordings and first ingestion time kept, its participants written anew.
 */
export async function replaceCdrs(trx: Executor, tenant: Tenant, rows: Array<Insertable<CdrTable>>): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const ids = rows.map((row) => String(row.cdr_id));
  await trx.deleteFrom('cdr_participants').where('pbx_id', '=', tenant.pbxId).where('cdr_id', 'in', ids).execute();
  for (const row of rows) {
    const { pbx_id: _pbx, cdr_id: _id, created_at: _created, has_recording: _recording, ...changes } = row;
    await trx
      .insertInto('cdrs')
      .values(row)
      .onConflict((oc) => oc.columns(['pbx_id', 'cdr_id']).doUpdateSet(changes))
      .execute();
  }
  return new Set(ids);
}

export async function insertParticipants(trx: Executor, rows: Array<Insertable<CdrParticipantTable>>): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('cdr_participants')
    .values(rows)
    .onConflict((oc) => oc.columns(['pbx_id', 'cdr_id', 'user_id']).doNothing())
    .execute();
}

export async function upsertRecording(trx: Executor, row: Insertable<CdrRecordingTable>): Promise<void> {
  const { pbx_id: _pbx, cdr_id: _cdr, kind: _kind, ...changes } = row;
  await trx
    .insertInto('cdr_recordings')
    .values(row)
    .onConflict((oc) => oc.columns(['pbx_id', 'cdr_id', 'kind']).doUpdateSet(changes))
    .execute();
  await trx.updateTable('cdrs').set({ has_recording: 1 }).where('pbx_id', '=', row.pbx_id).where('cdr_id', '=', row.cdr_id).execute();
}

/** Live users of the tenant among `ids` (ingested user ids must be the PBX's own). */
export async function tenantUserIds(db: Executor, tenant: Tenant, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('pbx_id', '=', tenant.pbxId).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

export function findViewer(db: Executor, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'role', 'call_information_visibility', 'call_recordings_visibility'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', userId)
    .executeTakeFirst();
}
