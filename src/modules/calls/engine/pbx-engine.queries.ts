import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { AmiSettingsTable, PlacedCallTable } from '../calls.tables.js';

type Db = Kysely<DB> | Transaction<DB>;

export function findAmiSettings(db: Db, tenant: Tenant) {
  return db.selectFrom('ami_settings').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
}

export function enabledAmiSettings(db: Db) {
  return db.selectFrom('ami_settings').selectAll().where('enabled', '=', 1).execute();
}

export async function saveAmiSettings(db: Db, row: Insertable<AmiSettingsTable>): Promise<void> {
  const { pbx_id: _pbx, created_at: _created, ...changes } = row;
  await db
    .insertInto('ami_settings')
    .values(row)
    .onConflict((oc) => oc.column('pbx_id').doUpdateSet(changes))
    .execute();
}

export async function deleteAmiSettings(db: Db, tenant: Tenant): Promise<number> {
  const result = await db.deleteFrom('ami_settings').where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPlacedCall(db: Db, row: Insertable<PlacedCallTable>): Promise<void> {
  await db.insertInto('placed_calls').values(row).execute();
}

export function findPlacedCallByAction(db: Db, actionId: string) {
  return db.selectFrom('placed_calls').selectAll().where('action_id', '=', actionId).executeTakeFirst();
}

export function findPlacedCallByUniqueid(db: Db, tenant: Tenant, uniqueid: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('uniqueid', '=', uniqueid).executeTakeFirst();
}

export function findPlacedCall(db: Db, tenant: Tenant, id: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', '=', id).executeTakeFirst();
}

export async function updatePlacedCall(db: Db, tenant: Tenant, id: string, changes: Updateable<PlacedCallTable>): Promise<void> {
  await db.updateTable('placed_calls').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** The user owning an extension number of the PBX (to name the parties of an AMI Cdr). */
export async function usersByExtension(db: Db, tenant: Tenant, numbers: string[]): Promise<Map<string, { userId: string; name: string }>> {
  const wanted = numbers.filter(Boolean);
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('extensions as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.number', 'u.id', 'u.first_name', 'u.last_name'])
    .where('e.pbx_id', '=', tenant.pbxId)
    .where('e.deleted_at', 'is', null)
    .where('e.number', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.number, { userId: row.id, name: `${row.first_name} ${row.last_name}`.trim() }]));
}
