import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';

export function listUserSettings(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db.selectFrom('user_settings').select(['type', 'settings']).where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId).orderBy('type').execute();
}

export function findUserSetting(db: Kysely<DB>, tenant: Tenant, userId: string, type: string) {
  return db
    .selectFrom('user_settings')
    .select(['type', 'settings'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirst();
}

/** One document per (user, type): saving again replaces it, atomically. */
export async function upsertUserSetting(
  db: Kysely<DB>,
  row: { id: string; pbx_id: string; user_id: string; type: string; settings: string; now: string },
): Promise<void> {
  await db
    .insertInto('user_settings')
    .values({ id: row.id, pbx_id: row.pbx_id, user_id: row.user_id, type: row.type, settings: row.settings, created_at: row.now, updated_at: row.now })
    .onConflict((oc) => oc.columns(['user_id', 'type']).doUpdateSet({ settings: row.settings, updated_at: row.now }))
    .execute();
}

export async function deleteUserSetting(db: Kysely<DB>, tenant: Tenant, userId: string, type: string): Promise<number> {
  const result = await db
    .deleteFrom('user_settings')
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
