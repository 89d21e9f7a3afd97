import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { UserDndTable } from '../directory.tables.js';
import type { Executor } from '../../../db/database.js';

/** Rules with the engine ids of their caller identity and extension, as the contract shows them. */
function rulesOf(db: Executor, tenant: Tenant, userId: string) {
  return db
    .selectFrom('user_dnds as d')
    .leftJoin('caller_identities as ci', 'ci.id', 'd.caller_identity_id')
    .leftJoin('extensions as e', 'e.id', 'd.extension_id')
    .selectAll('d')
    .select(['ci.voip_id as caller_identity_voip_id', 'e.voip_id as extension_voip_id'])
    .where('d.pbx_id', '=', tenant.pbxId)
    .where('d.user_id', '=', userId);
}

export function listDnds(db: Executor, tenant: Tenant, userId: string, type?: string) {
  let query = rulesOf(db, tenant, userId);
  if (type) query = query.where('d.type', '=', type as UserDndTable['type']);
  return query.orderBy('d.created_at').orderBy('d.id').execute();
}

export function findDnd(db: Executor, tenant: Tenant, userId: string, id: string) {
  return rulesOf(db, tenant, userId).where('d.id', '=', id).executeTakeFirst();
}

export type DndRow = NonNullable<Awaited<ReturnType<typeof findDnd>>>;

export function findDndByKey(db: Executor, tenant: Tenant, userId: string, ruleKey: string) {
  return db
    .selectFrom('user_dnds')
    .selectAll()
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .where('rule_key', '=', ruleKey)
    .executeTakeFirst();
}

export async function insertDnd(db: Executor, row: Insertable<UserDndTable>): Promise<void> {
  await db.insertInto('user_dnds').values(row).execute();
}

export async function updateDnd(db: Executor, tenant: Tenant, id: string, changes: Updateable<UserDndTable>): Promise<void> {
  await db.updateTable('user_dnds').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function deleteDnd(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('user_dnds').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

/** Users of the tenant with an active do-not-disturb rule for every external call: they do not ring for routed calls. */
export async function usersRefusingRoutedCalls(db: Kysely<DB>, tenant: Tenant): Promise<Set<string>> {
  const rows = await db
    .selectFrom('user_dnds')
    .select(['user_id'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('type', '=', 'external')
    .where('status', '=', 1)
    .where('caller_identity_id', 'is', null)
    .where('extension_id', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.user_id));
}
