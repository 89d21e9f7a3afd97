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
