import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { pagedQuery } from '../../../db/paging.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { ConfigPushStatus, ConfigVersionTable } from '../config-push.tables.js';
import type { Executor } from '../../../db/database.js';

export type ConfigVersionRow = Selectable<ConfigVersionTable>;

/**
 * Takes the PBX's push gate: granted (true) when it never pushed or its last push was at or
 * before `notAfter`, and then stamped `now`. One upsert, so of two pushes racing across instances
 * exactly one passes (PostgreSQL makes the second wait on the row, then re-checks the condition).
 */
export async function takePushGate(db: Executor, tenant: Tenant, now: string, notAfter: string): Promise<boolean> {
  const row = await db
    .insertInto('config_push_gates')
    .values({ pbx_id: tenant.pbxId, last_push_at: now })
    .onConflict((oc) => oc.column('pbx_id').doUpdateSet({ last_push_at: now }).where('config_push_gates.last_push_at', '<=', notAfter))
    .returning('last_push_at')
    .executeTakeFirst();
  return row?.last_push_at === now;
}

export async function lastPushAt(db: Executor, tenant: Tenant): Promise<string | undefined> {
  const row = await db.selectFrom('config_push_gates').select('last_push_at').where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
  return row?.last_push_at;
}

export async function nextVersionNumber(db: Executor, tenant: Tenant): Promise<number> {
  const row = await db
    .selectFrom('config_versions')
    .select((eb) => eb.fn.max('version').as('last'))
    .where('pbx_id', '=', tenant.pbxId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function insertVersion(db: Executor, row: Insertable<ConfigVersionTable>): Promise<void> {
  await db.insertInto('config_versions').values(row).execute();
}

export async function updateVersion(db: Executor, tenant: Tenant, id: string, changes: Updateable<ConfigVersionTable>): Promise<void> {
  await db.updateTable('config_versions').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** What a conditional change of a version requires: its status, and (when given) a lease still held. */
export interface VersionCondition {
  /** The statuses the version may be in: the one the caller last saw or set. */
  from: ConfigPushStatus[];
  /** A lease the caller must still hold (unexpired at `now`), in the same statement as the change. */
  lease?: { name: string; holder: string; now: string };
}

/**
 * Changes the version only while it is in one of `condition.from` and, with `condition.lease`,
 * while the caller still holds that lease: a delivery that lost its turn (its lease lapsed and
 * another runner took the push over) records nothing, and a final status is never undone. True
 * when the row changed.
 */
export async function updateVersionIf(
  db: Executor,
  tenant: Tenant,
  id: string,
  condition: VersionCondition,
  changes: Updateable<ConfigVersionTable>,
): Promise<boolean> {
  const { lease } = condition;
  let query = db.updateTable('config_versions').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).where('status', 'in', condition.from);
  if (lease)
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('leases')
          .select('leases.name')
          .where('leases.name', '=', lease.name)
          .where('leases.holder', '=', lease.holder)
          .where('leases.expires_at', '>', lease.now),
      ),
    );
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The columns a push's answer (and its progress event) shows: the version without its files. */
export const PUSH_COLUMNS = [
  'id',
  'version',
  'status',
  'reason',
  'engine',
  'hash',
  'rollback_of',
  'reloaded',
  'principal_kind',
  'principal_id',
  'user_id',
  'created_at',
  'started_at',
  'finished_at',
] as const;

/** A push as its answer shows it, without the files. */
export function findPushById(db: Executor, tenant: Tenant, id: string) {
  return db.selectFrom('config_versions').select(PUSH_COLUMNS).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).executeTakeFirstOrThrow();
}

export function findVersionById(db: Executor, tenant: Tenant, id: string) {
  return db.selectFrom('config_versions').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', '=', id).executeTakeFirst();
}

export function findVersion(db: Executor, tenant: Tenant, version: number) {
  return db.selectFrom('config_versions').selectAll().where('pbx_id', '=', tenant.pbxId).where('version', '=', version).executeTakeFirst();
}

/** The version the PBX runs: the last one delivered (`done`), optionally before `version`. */
export function lastDoneVersion(db: Executor, tenant: Tenant, before?: number) {
  let query = db.selectFrom('config_versions').selectAll().where('pbx_id', '=', tenant.pbxId).where('status', '=', 'done');
  if (before !== undefined) query = query.where('version', '<', before);
  return query.orderBy('version', 'desc').limit(1).executeTakeFirst();
}

/** The newest version after `version` in one of `statuses` (a push that overtook it). */
export function laterVersionIn(db: Executor, tenant: Tenant, version: number, statuses: ConfigPushStatus[]) {
  return db
    .selectFrom('config_versions')
    .select(['version', 'status'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('version', '>', version)
    .where('status', 'in', statuses)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The newest push still on its way (queued, delivering or reloading). */
export function pendingVersion(db: Executor, tenant: Tenant) {
  return db
    .selectFrom('config_versions')
    .select(['id', 'version', 'status'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('status', 'in', ['queued', 'delivering', 'reloading'])
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** What selects configuration pushes: the tenant, and a status when filtered. */
interface VersionScope {
  pbxId: string;
  status?: ConfigPushStatus;
}

function versionsOf(db: Kysely<DB>, scope: VersionScope) {
  let query = db.selectFrom('config_versions').where('pbx_id', '=', scope.pbxId);
  if (scope.status) query = query.where('status', '=', scope.status);
  return query;
}

const versionPage = pagedQuery({ scoped: versionsOf, columns: (query) => query.selectAll() });

export function listVersions(db: Executor, tenant: Tenant, filters: { status?: ConfigPushStatus }, sort: SortTerm[], page: PageRequest) {
  return versionPage(db, { pbxId: tenant.pbxId, ...filters }, sort, page);
}
