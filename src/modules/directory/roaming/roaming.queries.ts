import type { Tenant } from '../../../platform/tenancy.js';
import type { Executor } from '../../../db/database.js';

export async function setRoaming(db: Executor, tenant: Tenant, deviceId: string, who: { extensionId: string; userId: string }, now: string): Promise<void> {
  await db
    .updateTable('sip_devices')
    .set({ roaming_extension_id: who.extensionId, roaming_user_id: who.userId, roaming_since: now, updated_at: now })
    .where('id', '=', deviceId)
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}

export async function clearRoaming(db: Executor, tenant: Tenant, deviceId: string, now: string): Promise<void> {
  await db
    .updateTable('sip_devices')
    .set({ roaming_extension_id: null, roaming_user_id: null, roaming_since: null, updated_at: now })
    .where('id', '=', deviceId)
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}

/** An extension roams on one phone at a time: logging in elsewhere logs it out here. */
export async function clearRoamingOfExtension(db: Executor, tenant: Tenant, extensionId: string, now: string): Promise<void> {
  await db
    .updateTable('sip_devices')
    .set({ roaming_extension_id: null, roaming_user_id: null, roaming_since: null, updated_at: now })
    .where('roaming_extension_id', '=', extensionId)
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}
