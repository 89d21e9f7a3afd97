import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';

/** The caller: its permissions and name. */
export function findCallingUser(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'allow_telephony', 'allow_anonymous_calls', 'status'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Live SIP devices of the user, enabled or not. */
export function ownSipDevices(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db
    .selectFrom('sip_devices')
    .select(['id', 'name', 'username', 'enabled'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .execute();
}
