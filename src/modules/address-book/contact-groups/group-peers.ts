import type { Executor } from '../../../db/database.js';
import type { Tenant } from '../../../platform/tenancy.js';

/**
 * The user and every user sharing one of its contact groups, in one statement (the calls
 * domain's `own_group_only` visibility of the call history).
 */
export async function groupPeers(db: Executor, tenant: Tenant, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('contact_group_users as mine')
    .innerJoin('contact_groups as g', 'g.id', 'mine.group_id')
    .innerJoin('contact_group_users as peer', 'peer.group_id', 'mine.group_id')
    .select('peer.user_id')
    .distinct()
    .where('mine.user_id', '=', userId)
    .where('g.pbx_id', '=', tenant.pbxId)
    .execute();
  return [...new Set([userId, ...rows.map((row) => row.user_id)])];
}
