import type { Insertable, Updateable } from 'kysely';
import type { Tenant } from '../../../platform/tenancy.js';
import type { AmiCdrLegTable, AmiSettingsTable, PlacedCallTable } from '../calls.tables.js';
import type { Executor } from '../../../db/database.js';

export function findAmiSettings(db: Executor, tenant: Tenant) {
  return db.selectFrom('ami_settings').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
}

export function enabledAmiSettings(db: Executor) {
  return db.selectFrom('ami_settings').selectAll().where('enabled', '=', 1).execute();
}

export async function saveAmiSettings(db: Executor, row: Insertable<AmiSettingsTable>): Promise<void> {
  const { pbx_id: _pbx, created_at: _created, ...changes } = row;
  await db
    .insertInto('ami_settings')
    .values(row)
    .onConflict((oc) => oc.column('pbx_id').doUpdateSet(changes))
    .execute();
}

export async function deleteAmiSettings(db: Executor, tenant: Tenant): Promise<number> {
  const result = await db.deleteFrom('ami_settings').where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPlacedCall(db: Executor, row: Insertable<PlacedCallTable>): Promise<void> {
  await db.insertInto('placed_calls').values(row).execute();
}

export function findPlacedCallByAction(db: Executor, actionId: string) {
  return db.selectFrom('placed_calls').selectAll().where('action_id', '=', actionId).executeTakeFirst();
}

export function findPlacedCallByUniqueid(db: Executor, tenant: Tenant, uniqueid: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('uniqueid', '=', uniqueid).executeTakeFirst();
}

export function findPlacedCall(db: Executor, tenant: Tenant, id: string) {
  return db.selectFrom('placed_calls').selectAll().where('pbx_id', '=', tenant.pbxId).where('id', '=', id).executeTakeFirst();
}

export async function updatePlacedCall(db: Executor, tenant: Tenant, id: string, changes: Updateable<PlacedCallTable>): Promise<void> {
  await db.updateTable('placed_calls').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

/** The PBX's own time zone (the default of its Asterisk host's). */
export async function pbxTimezone(db: Executor, tenant: Tenant): Promise<string> {
  const row = await db.selectFrom('pbxes').select('timezone').where('id', '=', tenant.pbxId).executeTakeFirst();
  return row?.timezone ?? 'UTC';
}

/** The event listener's login outcome: failures counted, and the settings marked failing past the limit. */
export async function recordListenerLogin(
  db: Executor,
  tenant: Tenant,
  outcome: { failures: number; failingSince: string | null; error: string | null },
): Promise<void> {
  await db
    .updateTable('ami_settings')
    .set({ login_failures: outcome.failures, failing_since: outcome.failingSince, last_error: outcome.error?.slice(0, 255) ?? null })
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}

/** How many enabled PBXs have failing AMI settings (for /metrics). */
export async function countFailingAmiSettings(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('ami_settings')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('enabled', '=', 1)
    .where('failing_since', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The zone of the PBX host's clock as the settings say it: `pbx_timezone` when set (`explicit`),
 * else the PBX's own time zone (which the event listener replaces by the offset the host's Cdrs
 * show, see AmiEventListener).
 */
export async function amiZoneSettingOf(db: Executor, tenant: Tenant): Promise<{ name: string; explicit: boolean }> {
  const row = await db
    .selectFrom('pbxes')
    .leftJoin('ami_settings', 'ami_settings.pbx_id', 'pbxes.id')
    .select(['pbxes.timezone', 'ami_settings.pbx_timezone'])
    .where('pbxes.id', '=', tenant.pbxId)
    .executeTakeFirst();
  return row?.pbx_timezone ? { name: row.pbx_timezone, explicit: true } : { name: row?.timezone ?? 'UTC', explicit: false };
}

/** The zone of the PBX host's clock as the settings say it (`amiZoneSettingOf`). */
export async function amiZoneOf(db: Executor, tenant: Tenant): Promise<string> {
  return (await amiZoneSettingOf(db, tenant)).name;
}

export async function findUserName(db: Executor, tenant: Tenant, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select(['first_name', 'last_name']).where('pbx_id', '=', tenant.pbxId).where('id', '=', userId).executeTakeFirst();
  return row ? `${row.first_name} ${row.last_name}`.trim() : undefined;
}

/** Keeps one Cdr event of a call (a repeated event changes nothing). */
export async function saveCdrLeg(db: Executor, tenant: Tenant, leg: Omit<Insertable<AmiCdrLegTable>, 'pbx_id'>): Promise<void> {
  await db
    .insertInto('ami_cdr_legs')
    .values({ ...leg, pbx_id: tenant.pbxId })
    .onConflict((oc) => oc.columns(['pbx_id', 'uniqueid']).doNothing())
    .execute();
}

export function cdrLegsOf(db: Executor, tenant: Tenant, callKey: string) {
  return db.selectFrom('ami_cdr_legs').selectAll().where('pbx_id', '=', tenant.pbxId).where('call_key', '=', callKey).orderBy('created_at').execute();
}

/** A warning about the settings (the PBX host's clock disagreeing with `pbx_timezone`), shown as `connection.last_error`. */
export async function recordSettingsWarning(db: Executor, tenant: Tenant, warning: string): Promise<void> {
  await db
    .updateTable('ami_settings')
    .set({ last_error: warning.slice(0, 255) })
    .where('pbx_id', '=', tenant.pbxId)
    .execute();
}
