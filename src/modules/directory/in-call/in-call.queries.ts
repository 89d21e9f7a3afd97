import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { InCallStateTable } from '../directory.tables.js';

export function findInCallState(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db.selectFrom('in_call_states').selectAll().where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId).executeTakeFirst();
}

/** One row per user, replaced on each report; shared by every server instance. */
export async function saveInCallState(db: Kysely<DB>, row: InCallStateTable): Promise<void> {
  const { user_id: _user, pbx_id: _pbx, ...changes } = row;
  await db
    .insertInto('in_call_states')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
    .execute();
}
