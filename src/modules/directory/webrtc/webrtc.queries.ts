import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { WebrtcConfigurationTable } from '../directory.tables.js';

export function findWebrtc(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db.selectFrom('webrtc_configurations').selectAll().where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId).executeTakeFirst();
}

export async function saveWebrtc(db: Kysely<DB>, row: WebrtcConfigurationTable): Promise<void> {
  const { user_id: _user, pbx_id: _pbx, created_at: _created, ...changes } = row;
  await db
    .insertInto('webrtc_configurations')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
    .execute();
}

export async function deleteWebrtc(db: Kysely<DB>, tenant: Tenant, userId: string): Promise<number> {
  const result = await db.deleteFrom('webrtc_configurations').where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The identities the user may present, with the engine ids the WebRTC client works with. */
export function webrtcCallerIdentities(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db
    .selectFrom('caller_identities as ci')
    .innerJoin('phone_numbers as pn', 'pn.id', 'ci.phone_number_id')
    .select(['ci.voip_id as id', 'pn.voip_id as root_phone_nuber_id', 'ci.external_caller_extension', 'ci.external_caller_number'])
    .where('ci.pbx_id', '=', tenant.pbxId)
    .where('ci.deleted_at', 'is', null)
    .where('pn.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('ci.user_id', '=', userId), eb('ci.user_id', 'is', null)]))
    .orderBy('ci.voip_id')
    .execute();
}
