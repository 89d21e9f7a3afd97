import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { PhoneButtonTable } from '../directory.tables.js';

export type PhoneButtonRow = Selectable<PhoneButtonTable>;

function buttonsOf(db: Kysely<DB>, tenant: Tenant, userId: string) {
  return db.selectFrom('phone_buttons').where('pbx_id', '=', tenant.pbxId).where('user_id', '=', userId);
}

export function listButtons(db: Kysely<DB>, tenant: Tenant, userId: string, sipDeviceId?: string) {
  let query = buttonsOf(db, tenant, userId).selectAll();
  if (sipDeviceId) query = query.where('sip_device_id', '=', sipDeviceId);
  return query.orderBy('sip_device_id').orderBy('position').execute();
}

export function findButton(db: Kysely<DB>, tenant: Tenant, userId: string, id: string) {
  return buttonsOf(db, tenant, userId).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertButton(db: Kysely<DB>, row: Insertable<PhoneButtonTable>): Promise<void> {
  await db.insertInto('phone_buttons').values(row).execute();
}

export async function updateButton(db: Kysely<DB>, tenant: Tenant, id: string, changes: Updateable<PhoneButtonTable>): Promise<void> {
  await db.updateTable('phone_buttons').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}

export async function deleteButton(db: Kysely<DB>, tenant: Tenant, id: string): Promise<void> {
  await db.deleteFrom('phone_buttons').where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
